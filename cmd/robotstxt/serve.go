package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
)

// maxServeFile is the largest FILE that serve loads into the editor: room
// for a file over robots.MaxSize, to see where it is cut, but not for
// anything (the page sends the whole file at each change).
const maxServeFile = 2 << 20

// runServe runs "robotstxt serve": the tester's web page, until interrupted.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on; port 0 picks a free one")
	allowFetch := fs.Bool("allow-fetch", false, "let the page load live robots.txt files, fetched by this server")
	allowPrivate := fs.Bool("allow-private", false, "with -allow-fetch, also fetch from loopback, private and link-local addresses (an intranet); by default such fetches are refused")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotstxt serve [-addr HOST:PORT] [-allow-fetch [-allow-private]] [FILE|-]\n\n")
		fmt.Fprintf(stderr, "Serves a web page to edit a robots.txt (FILE, or Google's example file) and test URLs against it.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	if isURL(fs.Arg(0)) {
		fmt.Fprintf(stderr, "robotstxt serve: FILE is a file or -; to load a live robots.txt, give -allow-fetch and use the page\n")
		return 2
	}
	opts := tester.Options{
		Robots:     example,
		Name:       "the example file of Google's robots.txt specification",
		AllowFetch: *allowFetch,
		// Without -allow-private, fetches never reach the machine's own
		// networks (a strict fetch.Guard).
		AllowPrivate: *allowPrivate,
	}
	if fs.NArg() == 1 {
		src, err := load(fs.Arg(0), stdin)
		if err != nil {
			fmt.Fprintf(stderr, "robotstxt: %v\n", err)
			return 2
		}
		if len(src.body) > maxServeFile {
			fmt.Fprintf(stderr, "robotstxt: %s: over %d bytes, too large for the tester (only the first %d bytes of a robots.txt count)\n", src.name, maxServeFile, robots.MaxSize)
			return 2
		}
		opts.Robots, opts.Name = src.body, src.name
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return 2
	}
	if ip, ok := ln.Addr().(*net.TCPAddr); ok && !ip.IP.IsLoopback() {
		fmt.Fprintf(stderr, "robotstxt: warning: %s is not a loopback address: other machines can use the tester\n", ln.Addr())
	}
	srv := newServer(tester.NewHandler(opts))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "robotstxt: serving the tester on http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return 1
	}
	return 0
}

// newServer returns the tester's server of h. Its timeouts bound what a
// slow or idle client holds: the header (10 s), the whole request (30 s:
// the largest request body, 4 MiB, on a slow link) and an idle keep-alive
// connection (60 s). The write of an answer is not bounded: /api/fetch
// waits for a fetch of up to 30 s.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}
