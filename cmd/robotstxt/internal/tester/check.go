package tester

import (
	"net/http"

	"github.com/gorep/robots/lint"
)

// checkRequest is the body of /api/check.
type checkRequest struct {
	Robots string `json:"robots"`
}

// checkResponse is the answer of /api/check.
type checkResponse struct {
	file
	Diagnostics lint.Diagnostics `json:"diagnostics"`
}

// check serves /api/check with the findings of lint.Check.
func (s *server) check(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	if !decode(w, r, &req) {
		return
	}
	diags := lint.Check([]byte(req.Robots))
	if diags == nil {
		diags = lint.Diagnostics{} // [], not null
	}
	writeJSON(w, http.StatusOK, checkResponse{file: fileOf(req.Robots), Diagnostics: diags})
}
