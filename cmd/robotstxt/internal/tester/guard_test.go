package tester_test

import (
	"os"
	"testing"

	"github.com/gorep/robots/internal/loopback"
)

// TestMain runs the tests with http.DefaultTransport, and so the fetch
// package's default client, dialing 127.0.0.1 only.
func TestMain(m *testing.M) {
	loopback.Guard()
	os.Exit(m.Run())
}
