// Command fleet fetches URLs politely, as one worker process of a fleet of
// crawlers: several started at once on one Redis crawl as one crawler.
//
//	go run . -redis 127.0.0.1:6379 -workers 4 -agent EvalBot \
//	    -ua 'EvalBot/1.0 (+https://example.com/bot)' < urls.txt
//
// It reads one URL a line from stdin and fetches each through the library:
// robots.txt obeyed (fetch.Transport), each host's pages spaced by its
// Crawl-delay or Request-rate and slowed down by its 429, 500 and 503
// answers (a fetch.Queue over the transport's fetch.Politeness), with the
// robots.txt state and the slots shared in Redis when -redis is given
// (redisstore), in memory when -redis is empty. It prints one JSON line per URL
// when it is done with it:
//
//	{"url":"...","status":200,"error":"","uses":{"fetch":"allow","index":"...","snippet":"...","ai-input":"...","ai-train":"..."}}
//
// status is 0 and error set when the URL was not requested; uses.fetch is
// "deny" for a URL robots.txt disallows. The uses are those of
// signals.Decide over the host's robots.txt and, when the page was fetched,
// its own header and head (robots meta, X-Robots-Tag, Content-Usage,
// Content-Signal); tdmrep.json is not fetched, so that the hosts see page
// requests and robots.txt only.
//
// It exits 0 once every URL has its line, 2 on a usage error, 1 if stdin
// cannot be read. Before it exits it writes its counts to stderr: slots
// taken (shared in Redis, or alone while Redis failed), faults, slow-downs,
// robots.txt fetches.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/gorep/robots/signals"
	"github.com/redis/go-redis/v9"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// pageTimeout bounds each page request, its slot taken.
const pageTimeout = 30 * time.Second

// A line is what fleet prints for one URL.
type line struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
	Error  string `json:"error"`
	Uses   uses   `json:"uses"`
}

// uses are the answers for each use of a page.
type uses struct {
	Fetch   signals.Answer `json:"fetch"`
	Index   signals.Answer `json:"index"`
	Snippet signals.Answer `json:"snippet"`
	AIInput signals.Answer `json:"ai-input"`
	AITrain signals.Answer `json:"ai-train"`
}

// A config is what the flags say.
type config struct {
	redis     string
	workers   int
	agent, ua string
}

// run is the command, with its arguments and streams; it returns the exit
// code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "fleet:", err)
		}
		return 2
	}
	opts := fetch.TransportOptions{}
	if cfg.redis != "" {
		redis.SetLogger(redisstore.NewLogger(log.New(stderr, "fleet: ", log.LstdFlags), time.Minute))
		rdb := redis.NewClient(&redis.Options{
			Addr:                  cfg.redis,
			ContextTimeoutEnabled: true,
			DialTimeout:           100 * time.Millisecond,
			DialerRetries:         1,
		})
		defer rdb.Close()
		opts.Cache.Store = redisstore.New(rdb, redisstore.Options{})
		// A slow answer from Redis is still better than a slot taken
		// alone (200 ms by default).
		opts.Cache.StoreTimeout = time.Second
		opts.Cache.StoreFault = func(string, error) {} // counted in the stats below
	}
	tr, err := fetch.NewTransport(nil, cfg.ua, opts)
	if err != nil {
		fmt.Fprintln(stderr, "fleet:", err)
		return 2
	}
	c := &crawler{
		cfg:    cfg,
		tr:     tr,
		client: &http.Client{Transport: tr},
		queue:  fetch.NewQueue(tr.Politeness(), fetch.QueueOptions{}),
		out:    json.NewEncoder(stdout),
	}
	code := c.crawl(stdin, stderr)
	flushCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tr.Cache().Flush(flushCtx) // this process's fetches reach Redis
	ps, cs := tr.Politeness().Stats(), tr.Cache().Stats()
	fmt.Fprintf(stderr, "fleet: %d slots (%d shared, %d alone), %d store faults, %d slow-downs, %d robots.txt fetched, %d shared\n",
		ps.Slots, ps.Shared, ps.Alone, ps.StoreFaults+int64(cs.StoreFaults), ps.SlowDowns,
		cs.Fetches[fetch.Success]+cs.Fetches[fetch.Unavailable]+cs.Fetches[fetch.Unreachable], cs.Shared)
	return code
}

// parseFlags reads the flags: -ua defaults to -agent "/1.0", -agent to the
// crawler's token in -ua; both given must agree, since the rules are
// checked for the token the header names.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("fleet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.redis, "redis", "", "`address` of the Redis the fleet shares (host:port); '' keeps everything in memory")
	fs.IntVar(&cfg.workers, "workers", 4, "number of concurrent requests")
	fs.StringVar(&cfg.agent, "agent", "", "the crawler's product token, such as EvalBot")
	fs.StringVar(&cfg.ua, "ua", "", "the User-Agent header, such as 'EvalBot/1.0 (+https://example.com/bot)'")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: fleet [-redis host:port] [-workers n] -agent token [-ua header] < urls.txt")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	switch {
	case fs.NArg() > 0:
		return cfg, fmt.Errorf("unexpected argument %q: the URLs come on stdin", fs.Arg(0))
	case cfg.workers < 1 || cfg.workers > 10_000:
		return cfg, fmt.Errorf("-workers %d: want 1 to 10000", cfg.workers)
	case cfg.agent == "" && cfg.ua == "":
		return cfg, errors.New("-agent or -ua is required")
	}
	if cfg.ua == "" {
		cfg.ua = cfg.agent + "/1.0"
	}
	token, _, err := robots.CrawlerToken(cfg.ua)
	if err != nil || token == "*" {
		return cfg, fmt.Errorf("-ua %q names no crawler", cfg.ua)
	}
	if cfg.agent == "" {
		cfg.agent = token
	} else if !strings.EqualFold(cfg.agent, token) {
		return cfg, fmt.Errorf("-agent %q and the crawler -ua names, %q, differ", cfg.agent, token)
	}
	return cfg, nil
}

// A crawler is one run.
type crawler struct {
	cfg    config
	tr     *fetch.Transport
	client *http.Client
	queue  *fetch.Queue

	mu  sync.Mutex // over out
	out *json.Encoder
}

// crawl pushes the URLs of stdin to the queue while the workers fetch
// them, and returns the exit code once every URL has its line.
func (c *crawler) crawl(stdin io.Reader, stderr io.Writer) int {
	ctx := context.Background()
	var wg sync.WaitGroup
	for range c.cfg.workers {
		wg.Go(func() { c.work(ctx) })
	}
	code := 0
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		u := strings.TrimSpace(sc.Text())
		if u == "" {
			continue
		}
		if err := c.queue.Push(ctx, u); err != nil {
			c.print(line{URL: u, Error: err.Error(), Uses: c.uses(ctx, u, nil, nil)})
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(stderr, "fleet: reading stdin:", err)
		code = 1
	}
	c.queue.Close()
	wg.Wait()
	return code
}

// work fetches the URLs the queue hands out until it is empty.
func (c *crawler) work(ctx context.Context) {
	for {
		u, err := c.queue.Next(ctx)
		switch {
		case errors.Is(err, fetch.ErrQueueDone):
			return
		case err != nil:
			c.print(line{URL: u, Error: err.Error(), Uses: c.uses(ctx, u, nil, nil)})
		default:
			c.print(c.fetch(ctx, u))
		}
	}
}

// fetch requests u, its slot taken, and reads its header and head.
func (c *crawler) fetch(ctx context.Context, u string) line {
	ctx, cancel := context.WithTimeout(ctx, pageTimeout)
	defer cancel()
	l := line{URL: u}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		l.Error = err.Error()
		l.Uses = c.uses(ctx, u, nil, nil)
		return l
	}
	resp, err := c.client.Do(req)
	if err != nil {
		l.Error = err.Error()
		l.Uses = c.uses(ctx, u, nil, nil)
		return l
	}
	defer resp.Body.Close()
	l.Status = resp.StatusCode
	var head *signals.Head
	if ct := resp.Header.Get("Content-Type"); ct == "" || strings.Contains(ct, "html") {
		head, _ = signals.ReadHeadScan(resp.Body, 0) // what was read counts
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // the connection reused
	l.Uses = c.uses(ctx, u, resp.Header, head)
	return l
}

// uses returns the answers for each use of u from its host's robots.txt
// and, if the page was fetched, its header and head.
func (c *crawler) uses(ctx context.Context, u string, header http.Header, head *signals.Head) uses {
	seen := signals.Seen{Header: header, Head: head}
	if r, err := c.tr.Cache().Robots(ctx, u); err == nil {
		seen.Robots = r
	}
	d := signals.Decide(u, c.cfg.agent, seen).Uses
	return uses{d.Fetch.Answer, d.Index.Answer, d.Snippet.Answer, d.AIInput.Answer, d.AITrain.Answer}
}

// print writes l as one JSON line.
func (c *crawler) print(l line) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out.Encode(l)
}
