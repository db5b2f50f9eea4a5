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
// Allowed beside its floor, hostile files, bytes kept per input byte),
// and writes the raw outputs and a summary to results/<date>-<commit>/;
// cmd/summarize makes the summary's tables, which README's Performance
// section shows. testdata/README.md says which real files are used and
// why; RESULTS.md holds analyses and profiles of earlier commits.
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
//   - floor: not a library but the least work a question takes, to read
//     beside the others: a strings.HasPrefix loop over the literal heads of
//     the rules of the records that name the query's agent (or '*'), on
//     the path extracted beforehand (floor_test.go).
//   - grobotstxt: it has no parse-once API. AgentAllowed(body, agent, url)
//     parses the whole file again for every query, so that is its query
//     cost. Its "parse" is grobotstxt.Parse with a handler that keeps
//     nothing: the pass over the file that every query pays.
package bench
