module github.com/gorep/robots/examples/fleet

go 1.26.0

require (
	github.com/gorep/robots v0.0.0
	github.com/gorep/robots/redisstore v0.0.0
	github.com/redis/go-redis/v9 v9.22.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace (
	github.com/gorep/robots => ../..
	github.com/gorep/robots/redisstore => ../../redisstore
)
