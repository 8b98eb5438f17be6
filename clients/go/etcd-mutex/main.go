// Command etcd-mutex: etcd's official lock recipe, go.etcd.io/etcd/clientv3/concurrency's
// Session and Mutex (Debian golang-etcd-server-dev 3.4.23), as a fencecheck client
// (docs/client-protocol.md, protocol 1). Built offline in GOPATH mode by `npm run setup -- --go`
// (or: GO111MODULE=off GOPATH=/usr/share/gocode go build -o etcd-mutex .).
//
// Used as the package documents it: one Session per process (a lease kept alive by the
// client), concurrency.NewMutex(session, prefix), Lock(ctx), Unlock(ctx).
//
// Token: Mutex.Header().Revision, the revision at which Lock decided (the key's creation
// when uncontended, the last predecessor's deletion after a wait): it grows from one grant
// to the next. Mutex's own key revision (myRev) is not exported.
//
// This is the recipe Jepsen found unsafe on etcd 3.4.3 (etcd-io/etcd#11456): after
// waiting for its predecessors, Lock returns success without checking that its own key,
// and so its lease, still exists. Debian's 3.4.23 source of clientv3/concurrency/mutex.go has
// no such re-check. To measure how often that happens, after each successful Lock the client
// reads its own key once more and reports "finding: expired-lease grant: …" on stderr when it
// is gone (docs/client-protocol.md, Findings; the S11 scenario counts them);
// it does not change what it answers (a user of the library would not know).
package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/lib/pq"
	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
	"go.etcd.io/etcd/version"
)

const protocolVersion = 1

type config struct {
	LockEndpoints []string `json:"lockEndpoints"`
	LockName      string   `json:"lockName"`
	CallTimeoutMs int      `json:"callTimeoutMs"`
	Pg            struct {
		Host     string `json:"host"`
		Port     int    `json:"port"`
		User     string `json:"user"`
		Database string `json:"database"`
	} `json:"pg"`
}

type statement struct {
	SQL           string            `json:"sql"`
	Params        []json.RawMessage `json:"params"`
	RejectIfNoRow string            `json:"rejectIfNoRow"`
	ReadOnly      bool              `json:"readOnly"`
}

type request struct {
	ID         *int        `json:"id"`
	Op         string      `json:"op"`
	TTLMs      int         `json:"ttlMs"`
	Statements []statement `json:"statements"`
}

type answer map[string]interface{}

// opError: fail (definitely did not happen) or info (may have happened), with a short code.
type opError struct {
	info bool
	code string
	msg  string
}

func (e *opError) Error() string     { return e.code + ": " + e.msg }
func fail(code, msg string) *opError { return &opError{false, code, msg} }
func info(code, msg string) *opError { return &opError{true, code, msg} }

func logf(format string, a ...interface{}) {
	fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05.000")+" "+format+"\n", a...)
}

// monotonicNs reads CLOCK_MONOTONIC (1 on Linux): the standard library exposes no absolute monotonic reading.
func monotonicNs() int64 {
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 1, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return ts.Nano()
}

type client struct {
	cfg     config
	call    time.Duration
	etcd    *clientv3.Client
	session *concurrency.Session
	mutex   *concurrency.Mutex
	token   *int64
	db      *sql.DB
}

func (c *client) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), c.call)
}

func (c *client) acquire(ttlMs int) (answer, error) {
	if c.mutex != nil {
		return nil, fail("already-held", "this client holds the lock")
	}
	ttl := int(math.Ceil(float64(ttlMs) / 1000))
	if c.session != nil {
		select {
		case <-c.session.Done():
			// The session's lease is gone (it expired, e.g. during a pause): a new one, as an application would.
			c.session = nil
		default:
		}
	}
	if c.session == nil {
		// NewSession's context also keeps the lease alive, so it cannot carry the call timeout: wait for it here.
		type made struct {
			s   *concurrency.Session
			err error
		}
		ch := make(chan made, 1)
		go func() {
			s, err := concurrency.NewSession(c.etcd, concurrency.WithTTL(ttl))
			ch <- made{s, err}
		}()
		select {
		case m := <-ch:
			if m.err != nil {
				// A lease alone holds nothing: no lock was taken.
				return nil, fail("session", m.err.Error())
			}
			c.session = m.s
		case <-time.After(c.call):
			// The grant may still come (and keep a lease alive), but no lock was taken.
			return nil, fail("session-timeout", "no lease within the call timeout")
		}
	}
	m := concurrency.NewMutex(c.session, c.cfg.LockName)
	ctx, cancel := c.ctx()
	err := m.Lock(ctx)
	cancel()
	if err != nil {
		// Lock deletes its own key when the wait fails, but not when its first txn fails: ask whether our key exists.
		gctx, gcancel := c.ctx()
		resp, gerr := c.etcd.Get(gctx, m.Key())
		gcancel()
		if gerr == nil && len(resp.Kvs) == 0 {
			return nil, fail("held", err.Error())
		}
		return nil, info("lock-error", err.Error())
	}
	rev := m.Header().Revision
	c.mutex, c.token = m, &rev
	gctx, gcancel := c.ctx()
	if resp, gerr := c.etcd.Get(gctx, m.Key()); gerr == nil && len(resp.Kvs) == 0 {
		logf("finding: expired-lease grant: Lock returned with revision %d but its key %s is gone (its lease expired)", rev, m.Key())
	}
	gcancel()
	return answer{"type": "ok", "token": rev, "lease_ms": ttl * 1000}, nil
}

func (c *client) release() (answer, error) {
	m, token := c.mutex, c.token
	c.mutex, c.token = nil, nil
	if m == nil {
		// Nothing is sent.
		return nil, fail("not-held", "nothing held")
	}
	ctx, cancel := c.ctx()
	defer cancel()
	if err := m.Unlock(ctx); err != nil {
		// The delete may have happened.
		return answer{"token": *token}, info("unlock-error", err.Error())
	}
	// Unlock deletes the key whether or not it still existed: the library cannot say "not held".
	return answer{"type": "ok", "token": *token}, nil
}

func bind(raw json.RawMessage, token *int64) (interface{}, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == nil {
			return nil, nil
		}
		return *s, nil
	}
	var p struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || (p.Token != "fence" && p.Token != "unique") {
		return nil, fail("bad-request", "a parameter must be a text, null or {\"token\":...}")
	}
	if token == nil {
		// Checked before sending anything.
		if p.Token == "fence" {
			return nil, fail("no-fencing-token", "no hold")
		}
		return nil, fail("no-token", "no hold")
	}
	return strconv.FormatInt(*token, 10), nil
}

func dataValue(s string) interface{} {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.FormatInt(n, 10) == s && n <= 1<<53-1 && n >= -(1<<53-1) {
		return n
	}
	return s
}

func (c *client) run(stmts []statement, token *int64) (answer, error) {
	if len(stmts) == 0 {
		return nil, fail("not-applicable", "no statement in this mode")
	}
	bound := make([][]interface{}, len(stmts))
	for i, s := range stmts {
		for _, p := range s.Params {
			v, err := bind(p, token)
			if err != nil {
				return nil, err
			}
			bound[i] = append(bound[i], v)
		}
	}
	var last map[string]interface{}
	for i, s := range stmts {
		ctx, cancel := c.ctx()
		rows, err := c.db.QueryContext(ctx, s.SQL, bound[i]...)
		var got []map[string]interface{}
		if err == nil {
			cols, _ := rows.Columns()
			for rows.Next() {
				vals := make([]interface{}, len(cols))
				ptrs := make([]interface{}, len(cols))
				for j := range vals {
					ptrs[j] = &vals[j]
				}
				if err = rows.Scan(ptrs...); err != nil {
					break
				}
				row := map[string]interface{}{}
				for j, col := range cols {
					row[col] = vals[j]
				}
				got = append(got, row)
			}
			if err == nil {
				err = rows.Err()
			}
			rows.Close()
		}
		cancel()
		if err != nil {
			var pqe *pq.Error
			switch {
			case errors.As(err, &pqe) && pqe.Code == "57014" && !errors.Is(err, context.DeadlineExceeded):
				// statement_timeout: the server cancelled and rolled back our statement.
				return nil, fail("statement-timeout", err.Error())
			case errors.As(err, &pqe):
				// The server refused our autocommit statement: rolled back.
				return nil, fail("pg-"+string(pqe.Code), err.Error())
			case s.ReadOnly:
				// A read changed nothing, whatever happened to it.
				return nil, fail("timeout", err.Error())
			default:
				// Our deadline or a broken connection, the statement in flight: it may have committed.
				return nil, info("timeout", err.Error())
			}
		}
		// Every statement returns the rows it touched (RETURNING): none means the condition rejected the access.
		if len(got) == 0 {
			return answer{"type": "fail", "outcome": "rejected", "error": s.RejectIfNoRow}, nil
		}
		last = got[0]
	}
	a := answer{"type": "ok", "outcome": "accepted"}
	if d, ok := last["data"]; ok {
		a["value"] = dataValue(text(d))
	}
	if f, ok := last["fence"]; ok && f != nil {
		if n, err := strconv.ParseInt(text(f), 10, 64); err == nil {
			a["fence"] = n
		}
	}
	return a, nil
}

func text(v interface{}) string {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	default:
		return fmt.Sprint(x)
	}
}

func (c *client) handle(r request) (a answer) {
	defer func() {
		if p := recover(); p != nil {
			logf("%s: unexpected panic: %v", r.Op, p)
			a = answer{"type": "info", "error": "client-error"}
		}
	}()
	var err error
	access := r.Op == "read" || r.Op == "write" || r.Op == "mark"
	switch r.Op {
	case "acquire":
		a, err = c.acquire(r.TTLMs)
	case "release":
		a, err = c.release()
	case "read", "write", "mark":
		if c.mutex == nil {
			return answer{"type": "fail", "error": "no-hold", "outcome": "unknown"}
		}
		a, err = c.run(r.Statements, c.token)
		if a != nil {
			a["token"] = *c.token
		}
	case "final-read":
		a, err = c.run(r.Statements, nil)
		if a != nil {
			delete(a, "outcome")
			delete(a, "fence")
		}
	case "shutdown":
		a = answer{"type": "ok"}
	default:
		return answer{"type": "fail", "error": "bad-request"}
	}
	if err != nil {
		var oe *opError
		if !errors.As(err, &oe) {
			oe = info("client-error", err.Error())
		}
		logf("%s: %v", r.Op, oe)
		if a == nil {
			a = answer{}
		}
		a["type"], a["error"] = map[bool]string{true: "info", false: "fail"}[oe.info], oe.code
		if access {
			a["outcome"] = "unknown"
			a["token"] = *c.token
		}
	}
	return a
}

func main() {
	var cfg config
	if err := json.Unmarshal([]byte(os.Getenv("FC_CLIENT_CONFIG")), &cfg); err != nil || len(cfg.LockEndpoints) == 0 {
		fmt.Fprintf(os.Stderr, "Expected FC_CLIENT_CONFIG to hold the client configuration (JSON): %v\n", err)
		os.Exit(254)
	}
	call := time.Duration(cfg.CallTimeoutMs) * time.Millisecond
	etcd, err := clientv3.New(clientv3.Config{Endpoints: cfg.LockEndpoints, DialTimeout: call})
	if err != nil {
		logf("etcd client: %v", err)
		os.Exit(1)
	}
	stmtTimeout := int(float64(cfg.CallTimeoutMs) * 0.8)
	if stmtTimeout < 1 {
		stmtTimeout = 1
	}
	dsn := fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable connect_timeout=%d statement_timeout=%d",
		cfg.Pg.Host, cfg.Pg.Port, cfg.Pg.User, cfg.Pg.Database, int(math.Max(1, math.Round(call.Seconds()))), stmtTimeout)
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		logf("postgres: %v", err)
		os.Exit(1)
	}
	db.SetMaxOpenConns(1)
	c := &client{cfg: cfg, call: call, etcd: etcd, db: db}
	prefix := strings.TrimSuffix(cfg.LockName, "/")
	c.cfg.LockName = prefix

	out := bufio.NewWriter(os.Stdout)
	write := func(v interface{}) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	write(map[string]interface{}{"ready": true, "protocol": protocolVersion, "token": "monotonic",
		"versions": map[string]string{"go": runtime.Version(), "etcd-clientv3": version.Version, "lib/pq": "1.10.7"}})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		// CLOCK_MONOTONIC when the request was read: the op cannot have taken effect before.
		started := monotonicNs()
		var r request
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.ID == nil {
			write(answer{"id": -1, "type": "fail", "error": "bad-request"})
			continue
		}
		a := c.handle(r)
		a["id"], a["started_ns"] = *r.ID, strconv.FormatInt(started, 10)
		write(a)
		if r.Op == "shutdown" {
			break
		}
	}
	if c.session != nil {
		c.session.Close()
	}
	etcd.Close()
	db.Close()
}
