package redisstore

import (
	"context"
	"fmt"
	"log"
	"sync"
	"time"
)

// A Logger passes go-redis's log lines to a log.Logger, at most one per
// interval, saying how many it left out since the last. Install it with
// redis.SetLogger, once per process: go-redis has one logger for all its
// clients, which by default writes every line to stderr. While Redis is
// down, go-redis logs each refused dial, some 200 lines a second for a
// busy fleet worker; the Caches report each fault to
// fetch.Options.StoreFault already.
//
//	redis.SetLogger(redisstore.NewLogger(log.Default(), time.Minute))
//
// To drop go-redis's lines altogether, install a logger whose Printf does
// nothing, such as &logging.VoidLogger{} of
// github.com/redis/go-redis/v9/logging.
type Logger struct {
	out   *log.Logger
	every time.Duration

	mu      sync.Mutex
	next    time.Time // before it, lines are left out
	left    int       // lines left out since the last one written
	leftFor time.Time // when the first of them came
}

// NewLogger returns a Logger that writes to out at most one line per
// interval every (at least a millisecond).
func NewLogger(out *log.Logger, every time.Duration) *Logger {
	return &Logger{out: out, every: max(every, time.Millisecond)}
}

// Printf writes go-redis's line to the log.Logger, unless one was written
// less than the interval ago.
func (l *Logger) Printf(_ context.Context, format string, v ...any) {
	now := time.Now()
	l.mu.Lock()
	if now.Before(l.next) {
		if l.left == 0 {
			l.leftFor = now
		}
		l.left++
		l.mu.Unlock()
		return
	}
	left, since := l.left, l.leftFor
	l.next, l.left = now.Add(l.every), 0
	l.mu.Unlock()
	msg := fmt.Sprintf(format, v...)
	if left > 0 {
		msg += fmt.Sprintf(" (%d more lines left out since %s)", left, since.UTC().Format(time.RFC3339))
	}
	l.out.Output(2, msg)
}
