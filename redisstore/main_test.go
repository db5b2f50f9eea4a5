package redisstore_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/redis/go-redis/v9"
)

// redisAddr is the address of the redis-server that TestMain starts for the
// examples.
var redisAddr string

// TestMain starts a redis-server for the examples (the tests start their
// own), and stops it at the end.
func TestMain(m *testing.M) {
	if os.Getenv(envLogs) != "" { // a worker of TestRedisLogsRouted: its own logger
		os.Exit(m.Run())
	}
	// The fault tests make go-redis log each refused dial; the Caches
	// report them through StoreFault, which the tests count.
	redis.SetLogger(quietLogger{})
	if os.Getenv(envRedis) != "" || os.Getenv(envHang) != "" { // a worker process
		os.Exit(m.Run())
	}
	var code int
	tb := &mainTB{}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errMainFailed {
				panic(r)
			}
		}()
		srv := startServer(tb)
		defer srv.kill()
		redisAddr = srv.Addr()
		code = m.Run()
	}()
	if tb.failed {
		code = 1
	}
	os.Exit(code)
}

var errMainFailed = fmt.Errorf("redisstore: TestMain failed")

// A mainTB is the testing.TB that TestMain gives startServer: a failure
// prints and stops.
type mainTB struct {
	testing.TB
	failed bool
}

func (tb *mainTB) Helper()           {}
func (tb *mainTB) Cleanup(func())    {}
func (tb *mainTB) Fatal(args ...any) { tb.fail(fmt.Sprint(args...)) }
func (tb *mainTB) Fatalf(f string, args ...any) {
	tb.fail(fmt.Sprintf(f, args...))
}

func (tb *mainTB) fail(msg string) {
	fmt.Fprintln(os.Stderr, msg)
	tb.failed = true
	panic(errMainFailed)
}

// A quietLogger drops go-redis's log lines.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}
