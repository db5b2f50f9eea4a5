module github.com/gorep/robots/fuzz

go 1.26.0

require (
	github.com/gorep/robots v0.0.0
	github.com/jimsmart/grobotstxt v1.0.3
)

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

// The fuzz module always tests the robots package of this repository.
replace github.com/gorep/robots => ../
