package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A block is a fenced code block of README.md.
type block struct {
	lang  string   // after the opening fence: "sh", "go", or ""
	lines []string // between the fences
	line  int      // of the opening fence, 1-based
}

// readmeBlocks returns the fenced code blocks of the README at path.
func readmeBlocks(t *testing.T, path string) []block {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []block
	var cur *block
	for i, line := range strings.Split(string(body), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &block{lang: strings.TrimPrefix(line, "```"), line: i + 1}
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	return blocks
}

// shellWords splits a command line as sh does for the simple lines of the
// README: words separated by spaces, '...' and "..." quoting, and a "#" at
// the start of a word beginning a comment.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case c == '#' && !inWord:
			return words
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				j = len(line) - i - 1
			}
			w.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// inClone makes the working directory of the test a fresh directory that
// holds the repository's cmd directory, as the root of a clone does, and
// returns the path of README.md.
func inClone(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "cmd"), filepath.Join(dir, "cmd")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return filepath.Join(root, "README.md")
}

// TestReadmeCommands runs each line of README's command block, and checks
// that the block and the table of exit codes cover every subcommand.
// "fetch https://example.com/..." fetches from a local site instead, and
// serve, which runs until interrupted, is not run (serve_test.go tests it).
func TestReadmeCommands(t *testing.T) {
	readme := inClone(t)
	site := newSite(t, 200, "user-agent: *\ndisallow: /private\n")
	used := map[string]bool{}
	for _, b := range readmeBlocks(t, readme) {
		for _, line := range b.lines {
			args := shellWords(line)
			if b.lang != "sh" || len(args) < 2 || args[0] != "robotstxt" {
				continue
			}
			args = args[1:]
			used[args[0]] = true
			if args[0] == "serve" {
				continue
			}
			for i, a := range args {
				if args[0] == "fetch" || args[0] == "signals" {
					args[i] = strings.Replace(a, "https://example.com", site.URL, 1)
				}
			}
			var out bytes.Buffer
			status := run(args, strings.NewReader(""), &out, &out)
			if status != 0 && status != 1 || out.Len() == 0 {
				t.Errorf("README.md:%d: robotstxt %q = %d, printed:\n%s", b.line, args, status, out.String())
			}
		}
	}
	body, _ := os.ReadFile(readme)
	for name := range commands {
		if !used[name] {
			t.Errorf("README.md: the command block has no line for robotstxt %s", name)
		}
		if !bytes.Contains(body, []byte("| `"+name+"`")) && !bytes.Contains(body, []byte("| `"+name+"` (")) {
			t.Errorf("README.md: the table of exit codes has no row for %s", name)
		}
	}
}

// TestReadmeTranscripts replays the terminal sessions of README.md ("$ "
// lines in plain blocks, in order, in one directory) and checks that each
// command prints what is shown, standard error included. A shown output that
// ends with "..." is a prefix.
func TestReadmeTranscripts(t *testing.T) {
	readme := inClone(t)
	status := 0
	ran := 0
	for _, b := range readmeBlocks(t, readme) {
		if b.lang != "" {
			continue
		}
		for i := 0; i < len(b.lines); i++ {
			cmdline, ok := strings.CutPrefix(b.lines[i], "$ ")
			if !ok {
				continue
			}
			j := i + 1
			for j < len(b.lines) && !strings.HasPrefix(b.lines[j], "$ ") {
				j++
			}
			want := strings.Join(b.lines[i+1:j], "\n")
			if j > i+1 {
				want += "\n"
			}
			at := b.line + 1 + i
			got := replay(t, cmdline, &status)
			if prefix, ok := strings.CutSuffix(want, "...\n"); ok {
				prefix = strings.TrimRight(prefix, " ")
				if strings.HasPrefix(got, prefix) {
					got = want
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("README.md:%d: $ %s: output mismatch (-README +got):\n%s", at, cmdline, diff)
			}
			ran++
			i = j - 1
		}
	}
	if ran < 10 {
		t.Errorf("replayed only %d commands of README.md", ran)
	}
}

// replay runs one command line of a transcript and returns what it prints;
// status holds the exit status of the last robotstxt run.
func replay(t *testing.T, cmdline string, status *int) string {
	t.Helper()
	args := shellWords(cmdline)
	switch {
	case slices.Equal(args, []string{"echo", "$?"}):
		return strconv.Itoa(*status) + "\n"
	case len(args) == 2 && args[0] == "cat":
		body, err := os.ReadFile(args[1])
		if err != nil {
			t.Fatal(err)
		}
		return string(body)
	case len(args) == 3 && args[0] == "cp":
		body, err := os.ReadFile(args[1])
		if err == nil {
			err = os.WriteFile(args[2], body, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return ""
	case len(args) >= 3 && slices.Equal(args[:3], []string{"go", "run", "./cmd/robotstxt"}):
		// go run reports a failed program on standard error, after its
		// output, and exits 1 whatever the status.
		var out bytes.Buffer
		if *status = run(args[3:], strings.NewReader(""), &out, &out); *status != 0 {
			fmt.Fprintf(&out, "exit status %d\n", *status)
			*status = 1
		}
		return out.String()
	}
	if len(args) == 0 || args[0] != "robotstxt" {
		t.Errorf("README.md: cannot replay %q", cmdline)
		return ""
	}
	var out bytes.Buffer
	*status = run(args[1:], strings.NewReader(""), &out, &out)
	return out.String()
}

// TestReadmeJSONCommands checks README's list of the commands that take
// -json against the commands' flags.
func TestReadmeJSONCommands(t *testing.T) {
	body, err := os.ReadFile(inClone(t))
	if err != nil {
		t.Fatal(err)
	}
	sentence := regexp.MustCompile("((?:`[a-z]+`(?:,\\s+|\\s+and\\s+)?)+) take `-json`").FindSubmatch(body)
	if sentence == nil {
		t.Fatal("README.md: no sentence \"... take `-json`\"")
	}
	var listed []string
	for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllSubmatch(sentence[1], -1) {
		listed = append(listed, string(m[1]))
	}
	var takes []string
	for name := range commands {
		if run([]string{name, "-json", "-h"}, strings.NewReader(""), io.Discard, io.Discard) == 0 {
			takes = append(takes, name)
		}
	}
	slices.Sort(listed)
	slices.Sort(takes)
	if diff := cmp.Diff(takes, listed); diff != "" {
		t.Errorf("README.md: commands that take -json (-flags +README):\n%s", diff)
	}
}
