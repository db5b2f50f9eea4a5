module github.com/gorep/robots/bench

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/gorep/robots v0.0.0
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/temoto/robotstxt v1.1.2
)

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/gorep/robots => ../
