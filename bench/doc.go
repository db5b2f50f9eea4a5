// Package bench compares github.com/gorep/robots with the Go robots.txt
// libraries a crawler would otherwise use: github.com/temoto/robotstxt
// (v1.1.2) and github.com/jimsmart/grobotstxt (v1.0.3), Google's reference
// parser ported to Go. It is a nested module so that the peers never become
// dependencies of the library.
//
// The benchmarks live in the tests:
//
//   - bench_test.go: the benchmarks, every library in the same run, named
//     BenchmarkXxx/.../lib=NAME so that benchstat can compare them;
//   - synth_test.go: the generated files of 10 to 50,000 rules;
//   - agree_test.go: a fast test that the libraries answer the benchmark
//     queries as Google's reference does, where their semantics coincide.
//
// run.sh runs, in one go on the current tree, these benchmarks and the
// core's own (parse over the real-world corpus beside a bare line scan,
// Allowed beside its floors, BenchmarkAllowedFloor and
// BenchmarkAllowedMatchFloor, which are floor and floor-match below on the
// core's own files, hostile files, bytes kept per input byte), with
// BenchmarkWorstCase and BenchmarkAdversarialWildcards (long paths against
// many wildcard rules, beside issue 34's bound), and writes the raw
// outputs and a summary to results/<date>-<commit>/;
// cmd/summarize makes the summary's tables, which RESULTS.md's latest run
// shows, and a short table of them for README's Performance section.
// compare.sh compares the core's warm questions at two commits, each built
// as users build it and with every function 64-byte aligned, since a
// question of ~50 ns moves by ~12 % with where its loops land.
// testdata/README.md says which real files are used and why; RESULTS.md
// also holds analyses and profiles of earlier commits.
//
// What each library is asked:
//
//   - robots: Parse once, then Robots.Allowed(agent, url) per query; also
//     Group.Allowed(url) with the group resolved once ("robots-group"), and
//     Group.Allowed(path) with the path temoto is given ("robots-path"), the
//     like-for-like peer of temoto's Group.Test.
//   - temoto: FromBytes once, FindGroup(agent) once, then Group.Test(path)
//     per query, with the path extracted before the clock starts (and
//     RobotsData.TestAgent(path, agent) per query, as "temoto-agent").
//   - floor: not a library but the least work of answering
//     Allowed(agent, url) from scratch, with the parsed data in the best
//     layout for it (floor_test.go): (1) the agent's heads, by a linear
//     scan of the file's distinct tokens, lower-cased beforehand, comparing
//     lengths first, then bytes with the agent's folded to lower case,
//     falling back to the heads of '*'; if there are none, the answer is
//     known and the URL is not read; (2) the path, by the minimal scan,
//     which looks at each byte of the scheme and authority once, up to the
//     first '/', '?' or ';' that does not start "://", and cuts at the
//     first '#' (strings.IndexByte); (3) a strings.HasPrefix loop over
//     those heads (the pattern up to its first '*' or '$', as written).
//     Each step is the least its part takes: a question must find where
//     the path starts and ends, so it reads the scheme and authority and
//     then finds the fragment; it must tell which records name the agent,
//     and on files naming a few agents (these name at most 6) a scan that
//     rejects other lengths at once costs less than hashing a lower-cased
//     copy of the agent into a map; and it must test each rule's literal
//     head against the path. What it leaves out is real work robots does:
//     precedence, wildcards and "$", escaping, "/robots.txt" and paths
//     that start with '?', so it is a bound from below, not an answer. It
//     tests every head, so on files of many rules robots' index beats it.
//   - floor-match: the HasPrefix loop of floor alone, on the path split
//     and the heads found before the clock starts: the floor of
//     Group.Allowed(path) ("robots-path"), which is given both.
//   - grobotstxt: it has no parse-once API. AgentAllowed(body, agent, url)
//     parses the whole file again for every query, so that is its query
//     cost. Its "parse" is grobotstxt.Parse with a handler that keeps
//     nothing: the pass over the file that every query pays.
package bench
