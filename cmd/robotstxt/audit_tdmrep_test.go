package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestAuditTDMRep checks that audit of a URL reports the site's
// tdmrep.json beside its robots.txt, and nothing for a file.
func TestAuditTDMRep(t *testing.T) {
	srv := signalsSite(t)
	var out bytes.Buffer
	if code := run([]string{"audit", srv.URL + "/"}, nil, &out, &out); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	want := "# tdmrep.json: 200, 3 rules, first match decides: /articles/* reserved; /articles/free/ not reserved; /open/ not reserved\n"
	if !strings.HasSuffix(out.String(), want) {
		t.Errorf("audit output does not end with %q:\n%s", want, out.String())
	}
	out.Reset()
	run([]string{"audit", "-json", srv.URL + "/"}, nil, &out, &out)
	var rep struct {
		TDMRep *tdmrepAudit `json:"tdmrep"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.TDMRep == nil || len(rep.TDMRep.Rules) != 3 || rep.TDMRep.Rules[0].Reservation != 1 {
		t.Errorf("audit -json tdmrep = %+v, %v", rep.TDMRep, err)
	}
	out.Reset()
	run([]string{"audit", "-json", "example.txt"}, nil, &out, &out)
	if strings.Contains(out.String(), `"tdmrep"`) {
		t.Error("audit of a file reports a tdmrep.json")
	}
	a := printed(func(b *bytes.Buffer) { printTDMRep(b, &tdmrepAudit{Status: 404}) })
	if !strings.Contains(a, "404: none") {
		t.Errorf("404 line %q", a)
	}
}

func printed(f func(*bytes.Buffer)) string {
	var b bytes.Buffer
	f(&b)
	return b.String()
}
