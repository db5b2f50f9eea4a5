package signals

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tdmrepHTML is TDMRep's "TDM Metadata in HTML Content" example.
const tdmrepHTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="tdm-reservation" content="1">
    <meta name="tdm-policy" content="https://provider.com/policies/policy.json">
    <title>Document title</title>
  </head>
  <body>
    <meta name="robots" content="noindex">
  </body>
</html>`

func metaPairs(h *Head) []string {
	var out []string
	for _, m := range h.Metas {
		out = append(out, m.Name+"="+m.Content)
	}
	return out
}

func TestReadHead(t *testing.T) {
	tests := []struct {
		name     string
		page     string
		want     []string
		end      string
		complete bool
	}{
		{"tdmrep/html-example", tdmrepHTML,
			[]string{"tdm-reservation=1", "tdm-policy=https://provider.com/policies/policy.json"}, "</head>", true},
		{"google/example", `<!DOCTYPE html><html><head><meta name="robots" content="noindex"></head><body>(…)</body></html>`,
			[]string{"robots=noindex"}, "</head>", true},
		{"no-head-tag", `<meta name=ROBOTS content="NoIndex"><title>t <meta name=x content=y></title><p>x<meta name="robots" content="nofollow">`,
			[]string{"robots=NoIndex"}, "<p>", true},
		{"meta-in-body", `<html><head><title>x</title></head><body><meta name="robots" content="noindex"></body>`, nil, "</head>", true},
		{"implicit-end-by-text", `<head><meta name="googlebot" content="nosnippet">Hello<meta name="robots" content="noindex">`,
			[]string{"googlebot=nosnippet"}, "text", true},
		{"script-skipped", `<head><script>document.write('<meta name="robots" content="noindex">')</script><meta name="robots" content="noai"></head>`,
			[]string{"robots=noai"}, "</head>", true},
		{"bom", "\ufeff<!doctype html><html><head><meta name=robots content=noindex></head>", []string{"robots=noindex"}, "</head>", true},
		{"end-of-page", `<head><meta name="robots" content="noml">`, []string{"robots=noml"}, "end of page", true},
		{"meta-without-content", `<meta name="robots"><meta content="x"><meta name="a" content="">`, []string{"a="}, "end of page", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := ReadHead(strings.NewReader(tt.page), 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, metaPairs(h)); diff != "" {
				t.Errorf("metas mismatch (-want +got):\n%s", diff)
			}
			if h.End != tt.end || h.Complete != tt.complete {
				t.Errorf("End, Complete = %q, %t, want %q, %t", h.End, h.Complete, tt.end, tt.complete)
			}
		})
	}
}

// TestReadHeadMetaInBodyReported checks that a page whose robots tag is in
// the body says where the head ended.
func TestReadHeadMetaInBodyReported(t *testing.T) {
	h, _ := ReadHead(strings.NewReader(`<head></head><body><meta name="robots" content="noindex">`), 0)
	if len(h.Metas) != 0 || h.End != "</head>" {
		t.Fatalf("Metas %v End %q", h.Metas, h.End)
	}
	h, _ = ReadHead(strings.NewReader(`<title>x</title><div><meta name="robots" content="noindex">`), 0)
	if len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "<div>") || !strings.Contains(h.Problems[0], "not read") {
		t.Errorf("Problems = %q, want one naming <div>", h.Problems)
	}
	// ReadHeadScan reads on and names the misplaced tag.
	page := `<head></head><body><p>x</p><meta name="robots" content="noindex"><meta name=x content=y></body>`
	h, _ = ReadHeadScan(strings.NewReader(page), 0)
	if len(h.Metas) != 0 || len(h.Misplaced) != 2 || h.Misplaced[0].Offset != int64(strings.Index(page, "<meta")) {
		t.Fatalf("Metas %v Misplaced %v", h.Metas, h.Misplaced)
	}
	if len(h.Problems) != 1 || !strings.Contains(h.Problems[0], `<meta name="robots" content="noindex">`) || h.Read != int64(len(page)) {
		t.Errorf("Problems = %q, Read %d", h.Problems, h.Read)
	}
}

// endless yields an endless head of whitespace-separated meta tags, and
// counts what is read from it.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	const unit = `<meta name="x" content="y"> `
	for i := range p {
		p[i] = unit[(e.n+int64(i))%int64(len(unit))]
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestReadHeadHuge checks the bound: a 10 MB head is read up to the limit
// only, and the report says so.
func TestReadHeadHuge(t *testing.T) {
	src := &endless{}
	h, err := ReadHead(io.LimitReader(src, 10<<20), 0)
	if err != nil {
		t.Fatal(err)
	}
	if h.End != "limit" || h.Complete || h.Read != DefaultHeadLimit {
		t.Errorf("End %q Complete %t Read %d, want limit, false, %d", h.End, h.Complete, h.Read, DefaultHeadLimit)
	}
	if src.n > DefaultHeadLimit+64<<10 {
		t.Errorf("read %d bytes from the source, want about %d", src.n, DefaultHeadLimit)
	}
	if len(h.Metas) != maxMetas {
		t.Errorf("kept %d metas, want %d", len(h.Metas), maxMetas)
	}
	if len(h.Problems) != 2 {
		t.Errorf("Problems = %q, want the meta cap and the limit", h.Problems)
	}
	// One enormous attribute: the limit holds too.
	big := "<head><meta name=robots content=\"" + strings.Repeat("a", 3<<20) + "\">"
	h, err = ReadHead(strings.NewReader(big), 1<<20)
	if err != nil || h.Complete || h.End != "limit" {
		t.Errorf("huge tag: End %q Complete %t err %v", h.End, h.Complete, err)
	}
}

func TestReadHeadError(t *testing.T) {
	r := io.MultiReader(bytes.NewReader([]byte(`<head><meta name=robots content=noai>`)), errReader{})
	h, err := ReadHead(r, 0)
	if err == nil || len(h.Metas) != 1 {
		t.Errorf("err %v, metas %v: want the error and the meta read before it", err, h.Metas)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

// TestReadHeadStopsNearEnd checks what ReadHead's doc says of how far it
// reads: past the head's end by a block at most, not the whole page.
func TestReadHeadStopsNearEnd(t *testing.T) {
	page := `<html><head><meta name="robots" content="noindex"></head><body>` + strings.Repeat("x", 100000)
	h, err := ReadHead(strings.NewReader(page), 0)
	if err != nil {
		t.Fatal(err)
	}
	if end := int64(strings.Index(page, "</head>") + len("</head>")); h.Read < end || h.Read > end+4096 {
		t.Errorf("read %d bytes, want between the head's end %d and a 4 KiB block past it", h.Read, end)
	}
}
