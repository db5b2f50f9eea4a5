package ruleset

import (
	"sync/atomic"

	"github.com/gorep/robots/internal/lines"
)

// A source is what the engine reads of a file: the kept text, which holds
// the rules' patterns, then the line table (from linesAt) and its index
// (from indexAt), the compiled rules of its sets, and what its questions
// laid out.
type source struct {
	text             string
	compiled         []rule
	linesAt, indexAt uint32
	// lazySize is the bytes of the layouts questions made (layOut).
	lazySize atomic.Int64
}

// Source is the engine's view of a parsed file, which the file (package
// robots, Robots) holds: no question reads the file itself.
type Source = source

// SetText sets the kept text of s, whose line table starts at linesAt and
// its index at indexAt.
func (s *source) SetText(text string, linesAt, indexAt uint32) {
	s.text, s.linesAt, s.indexAt = text, linesAt, indexAt
}

// ShareText sets the kept text of s to that of o.
func (s *source) ShareText(o *source) { s.text, s.linesAt, s.indexAt = o.text, o.linesAt, o.indexAt }

// Text returns the kept text of s: values, line table and index.
func (s *source) Text() string { return s.text }

// Table returns the line table of s.
func (s *source) Table() lines.Table { return s.table() }

func (s *source) table() lines.Table { return lines.NewTable(s.text, s.linesAt, s.indexAt) }

// Compiled returns the compiled rules of the sets of s.
func (s *source) Compiled() []Rule { return s.compiled }

// SetCompiled sets the rules the sets of s are compiled into, which
// Compile appends to.
func (s *source) SetCompiled(c []Rule) { s.compiled = c }

// LazySize returns the bytes of the layouts questions have made.
func (s *source) LazySize() int { return int(s.lazySize.Load()) }
