package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestServeUsage(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, bytes.Repeat([]byte("#\n"), maxServeFile/2+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		args   []string
		status int
		stderr string // a part of the standard error
	}{
		{"help", []string{"serve", "-h"}, 0, "usage: robotstxt serve"},
		{"bad-flag", []string{"serve", "-port", "80"}, 2, "usage: robotstxt serve"},
		{"two-files", []string{"serve", "a.txt", "b.txt"}, 2, "usage: robotstxt serve"},
		{"url", []string{"serve", "https://example.com/robots.txt"}, 2, "-allow-fetch"},
		{"missing-file", []string{"serve", filepath.Join(dir, "missing.txt")}, 2, "no such file"},
		{"too-large", []string{"serve", big}, 2, "too large for the tester"},
		{"bad-addr", []string{"serve", "-addr", "127.0.0.1:http-alt-x"}, 2, "robotstxt:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(tt.args, strings.NewReader(""), &stdout, &stderr); got != tt.status {
				t.Errorf("run(%q) = %d, want %d; stderr:\n%s", tt.args, got, tt.status, &stderr)
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("run(%q): stderr %q does not hold %q", tt.args, &stderr, tt.stderr)
			}
		})
	}
}

// TestServe starts the tester on 127.0.0.1 with a file from standard input,
// gets the page, and stops the server as Ctrl-C does.
func TestServe(t *testing.T) {
	out, w := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run([]string{"serve", "-addr", "127.0.0.1:0", "-"}, strings.NewReader("User-agent: *\nDisallow: /served\n"), w, &stderr)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the address: %v; stderr: %s", err, &stderr)
	}
	go io.Copy(io.Discard, out)
	addr := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
	if addr == "" {
		t.Fatalf("no address in %q", line)
	}

	resp, err := http.Get(addr)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(page, []byte("Disallow: /served\n</textarea>")) || !bytes.Contains(page, []byte("(stdin)")) {
		t.Errorf("GET %s: status %d, page without the file:\n%s", addr, resp.StatusCode, page)
	}

	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case status := <-done:
		if status != 0 {
			t.Errorf("serve exited with %d, want 0; stderr: %s", status, &stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
}
