// Package fuzz checks github.com/gorep/robots against an independent
// implementation of Google's robots.txt matcher.
//
// It is a nested module so that its dependencies never reach the users of
// the robots package. It holds three things:
//
//   - an oracle adapter ([NewOracle]) around github.com/jimsmart/grobotstxt
//     v1.0.3, a Go port of Google's C++ reference parser, that normalises
//     away or excludes the inputs on which the port is known to differ from
//     the reference (../../shared/spec/NOTES.md, section 10);
//   - a grammar-aware generator ([Generate], [QueriesFor]) of robots.txt
//     files and of URLs derived from their own patterns, deterministic from a
//     seed;
//   - a minimiser ([Minimize]) that shrinks a disagreement to a small
//     reproducer, line by line and then byte by byte in the URL.
//
// The tests compare the robots package with the oracle on generated cases
// (TestDifferential, FuzzDifferential) and with the verdicts of the C++
// reference on real files (TestRealWorld).
//
// A long fuzz campaign, from this directory:
//
//	go test -run='^$' -fuzz=FuzzDifferential -fuzztime=30m
package fuzz
