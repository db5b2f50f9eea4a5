package tester

import (
	"net/http"

	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/audit"
)

// auditRequest is the body of /api/audit.
type auditRequest struct {
	Robots string `json:"robots"`
}

// auditResponse is the answer of /api/audit.
type auditResponse struct {
	file
	audit.Report
}

// audit serves /api/audit with what the file does to the known AI and
// search crawlers, as "robotstxt audit -json" prints it.
func (s *server) audit(w http.ResponseWriter, r *http.Request) {
	var req auditRequest
	if !decode(w, r, &req) {
		return
	}
	rep := audit.Run(robots.Parse([]byte(req.Robots)))
	writeJSON(w, http.StatusOK, auditResponse{file: fileOf(req.Robots), Report: rep})
}
