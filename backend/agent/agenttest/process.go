package agenttest

import (
	"fmt"
	"log"
	"os"
	"testing"
)

// Process is the part of testing.TB that New and llmtest use, for a program
// that records a scripted run (backend/runner/sample/gen): temporary
// directories under one Root, cleanups run by Close, errors logged and
// remembered. A fatal error closes the process's directories and exits.
type Process struct {
	testing.TB
	Root     string
	cleanups []func()
	failed   bool
}

// NewProcess makes the process's root directory, named after prefix.
func NewProcess(prefix string) (*Process, error) {
	root, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	return &Process{Root: root}, nil
}

// Helper does nothing: a process has no call stack to trim from its logs.
func (p *Process) Helper() {}

// Cleanup registers f for Close, which runs the cleanups last first.
func (p *Process) Cleanup(f func()) { p.cleanups = append(p.cleanups, f) }

// Failed reports whether Errorf was called.
func (p *Process) Failed() bool { return p.failed }

// Errorf logs the error and remembers that the process failed.
func (p *Process) Errorf(format string, args ...any) {
	p.failed = true
	log.Printf(format, args...)
}

// Fatal closes the process's directories, logs args and exits.
func (p *Process) Fatal(args ...any) {
	p.Close()
	log.Fatal(args...)
}

// Fatalf is Fatal with a format.
func (p *Process) Fatalf(format string, args ...any) { p.Fatal(fmt.Sprintf(format, args...)) }

// TempDir is a new directory under Root.
func (p *Process) TempDir() string {
	dir, err := os.MkdirTemp(p.Root, "")
	if err != nil {
		p.Fatal(err)
	}
	return dir
}

// Close runs the cleanups, the last registered first, and removes Root.
func (p *Process) Close() {
	for i := len(p.cleanups) - 1; i >= 0; i-- {
		p.cleanups[i]()
	}
	p.cleanups = nil
	if err := os.RemoveAll(p.Root); err != nil {
		log.Printf("remove the process's directories: %v", err)
	}
}
