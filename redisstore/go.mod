module github.com/gorep/robots/redisstore

go 1.26.0

replace github.com/gorep/robots => ..

require (
	github.com/google/go-cmp v0.7.0
	github.com/gorep/robots v0.0.0-00010101000000-000000000000
	github.com/redis/go-redis/v9 v9.22.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
