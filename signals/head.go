package signals

// Reading the head of an HTML page for its meta tags, streaming, with
// golang.org/x/net/html's tokenizer. Robots meta tags belong in the head
// (Google: "place the robots meta tag in the <head> section"), and so do
// TDMRep's (TDMRep, "TDM Metadata in HTML Content"). The head ends, as the
// HTML parsing algorithm ends it, at </head>, at <body>, or at the first
// element or text that cannot be in a head; nothing after it is read, so a
// meta tag in the body is not seen, and Head says where reading stopped.

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// DefaultHeadLimit is the number of bytes ReadHead reads when given no
// limit: far more than any real head (the largest heads, with inlined
// styles and scripts, are some hundred kilobytes), little enough to bound
// the cost of a hostile page.
const DefaultHeadLimit = 1 << 20

// maxMetas bounds the meta tags kept: a head of a million empty meta tags
// costs no more than its bytes.
const maxMetas = 1000

// A Meta is a meta tag of the head with a name and content.
type Meta struct {
	Name    string `json:"name"` // lower-cased
	Content string `json:"content"`
	// Offset is the tag's byte offset in the page.
	Offset int64 `json:"offset"`
}

// Head is what ReadHead saw.
type Head struct {
	Metas []Meta `json:"metas,omitempty"`
	// Read is the number of bytes read.
	Read int64 `json:"read"`
	// End says where the head ended: "</head>", "<body>", "<div>" (the
	// first tag that cannot be in a head), "text", "end of page", or
	// "limit" when the limit came first (then the head was not all seen).
	End string `json:"end"`
	// Complete reports whether the whole head was read.
	Complete bool `json:"complete"`
	// Problems say what was not read and why.
	Problems []string `json:"problems,omitempty"`
	// Misplaced are the meta tags found after the head by ReadHeadScan,
	// which are not applied.
	Misplaced []Meta `json:"misplaced,omitempty"`
}

// inHead lists the elements that may stand in a head (the "in head"
// insertion mode of the HTML standard, with html and head themselves).
var inHead = map[atom.Atom]bool{
	atom.Html: true, atom.Head: true, atom.Meta: true, atom.Link: true, atom.Title: true,
	atom.Style: true, atom.Script: true, atom.Base: true, atom.Noscript: true,
	atom.Template: true, atom.Basefont: true, atom.Bgsound: true,
}

// skipContent lists the head elements whose content is not read.
var skipContent = map[atom.Atom]bool{
	atom.Title: true, atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
}

// ReadHead reads the meta tags of the head of the HTML page r, reading at
// most limit bytes (DefaultHeadLimit if limit <= 0). It stops at the
// head's end, having read ahead of it by up to a block of the tokenizer's
// (4 KiB): a caller that hands the body on keeps what was read, as
// usage.Transport does. An error from r other than io.EOF is returned with what
// was read before it.
func ReadHead(r io.Reader, limit int64) (*Head, error) {
	return readHead(r, limit, false)
}

// ReadHeadScan reads the head as ReadHead does, then goes on reading, up
// to the same limit, for meta tags misplaced in the body, to report them
// (Head.Misplaced and a problem): a page that puts its robots meta tag in
// the body learns that it is not read. It reads more than ReadHead: use it
// where the page is read whole anyway, or for a report.
func ReadHeadScan(r io.Reader, limit int64) (*Head, error) {
	return readHead(r, limit, true)
}

func readHead(r io.Reader, limit int64, scan bool) (*Head, error) {
	if limit <= 0 {
		limit = DefaultHeadLimit
	}
	cr := &countReader{r: io.LimitReader(r, limit)}
	z := html.NewTokenizer(cr)
	z.SetMaxBuf(int(limit))
	h := &Head{}
	var offset int64
	// inside is the element whose content is being skipped: the text of a
	// title, script or style, the markup of a noscript or template.
	var inside atom.Atom
	for {
		tt := z.Next()
		raw := len(z.Raw())
		if inside != 0 && tt != html.ErrorToken {
			if tt == html.EndTagToken {
				if name, _ := z.TagName(); atom.Lookup(name) == inside {
					inside = 0
				}
			}
			offset += int64(raw)
			continue
		}
		switch tt {
		case html.ErrorToken:
			h.Read = cr.n
			err := z.Err()
			switch {
			case errors.Is(err, io.EOF) && cr.n >= limit:
				h.End = "limit"
				h.Problems = append(h.Problems, "the head is longer than "+strconv.FormatInt(limit, 10)+
					" bytes: reading stopped there, and signals after it are not seen")
				return h, nil
			case errors.Is(err, io.EOF):
				h.End, h.Complete = "end of page", true
				return h, nil
			case errors.Is(err, html.ErrBufferExceeded):
				h.End = "limit"
				h.Problems = append(h.Problems, "a tag is longer than "+strconv.FormatInt(limit, 10)+" bytes: reading stopped")
				return h, nil
			}
			return h, err
		case html.TextToken:
			// A byte order mark is stripped before tokenizing, as the HTML
			// standard's decoder does; it does not end the head.
			if strings.TrimSpace(strings.TrimPrefix(string(z.Text()), "\ufeff")) != "" {
				return h.ended(z, cr, "text", offset, scan), nil
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if !inHead[a] {
				return h.ended(z, cr, "<"+string(name)+">", offset, scan), nil
			}
			if a == atom.Meta && hasAttr {
				h.addMeta(z, offset)
			}
			if tt == html.StartTagToken && skipContent[a] {
				inside = a
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if a := atom.Lookup(name); a == atom.Head || a == atom.Html {
				return h.ended(z, cr, "</"+string(name)+">", offset, scan), nil
			}
		}
		offset += int64(raw)
	}
}

// ended records that the head ended with what, at byte offset at, and, if
// scan, reads on for misplaced meta tags.
func (h *Head) ended(z *html.Tokenizer, cr *countReader, what string, at int64, scan bool) *Head {
	h.Read, h.End, h.Complete = cr.n, what, true
	if what != "</head>" && what != "</html>" {
		h.Problems = append(h.Problems, "the head ends at byte "+strconv.FormatInt(at, 10)+" with "+what+
			": meta tags after it are in the body and are not read")
	}
	if !scan {
		return h
	}
	offset := at + int64(len(z.Raw()))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			if name, hasAttr := z.TagName(); hasAttr && atom.Lookup(name) == atom.Meta && len(h.Misplaced) < maxMetas {
				if m, ok := metaOf(z, offset); ok {
					h.Misplaced = append(h.Misplaced, m)
				}
			}
		}
		offset += int64(len(z.Raw()))
	}
	h.Read = cr.n
	if len(h.Misplaced) > 0 {
		m := h.Misplaced[0]
		h.Problems = append(h.Problems, strconv.Itoa(len(h.Misplaced))+" meta tag(s) after the head, the first "+
			`<meta name="`+truncate(m.Name, 60)+`" content="`+truncate(m.Content, 60)+`">`+" at byte "+
			strconv.FormatInt(m.Offset, 10)+": not applied (robots and TDMRep meta tags belong in the head)")
	}
	return h
}

// addMeta keeps the tag's name and content, if it has both.
func (h *Head) addMeta(z *html.Tokenizer, offset int64) {
	m, ok := metaOf(z, offset)
	if !ok {
		return
	}
	if len(h.Metas) == maxMetas {
		if len(h.Problems) == 0 || !strings.HasPrefix(h.Problems[len(h.Problems)-1], "more than") {
			h.Problems = append(h.Problems, "more than "+strconv.Itoa(maxMetas)+" meta tags: the others are not kept")
		}
		return
	}
	h.Metas = append(h.Metas, m)
}

// metaOf returns the name and content of the meta tag z is at, and
// whether it has both.
func metaOf(z *html.Tokenizer, offset int64) (Meta, bool) {
	var name, content string
	var hasName, hasContent bool
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "name":
			name, hasName = strings.ToLower(strings.TrimSpace(string(v))), true
		case "content":
			content, hasContent = string(v), true
		}
		if !more {
			break
		}
	}
	return Meta{Name: name, Content: content, Offset: offset}, hasName && hasContent
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
