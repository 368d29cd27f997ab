package bot

// LimitRuns fixes how many of b's runs may be live at once.
func LimitRuns(b *Bot, n int) {
	g := b.gate
	g.mu.Lock()
	g.limit = n
	g.watching = true // no adjusting: the limit stays n
	g.mu.Unlock()
}

// WaitGated returns once n of b's runs wait to start.
func WaitGated(b *Bot, n int) { waitForWaiters(b.gate, n) }

// waitForWaiters returns once n runs wait at g, woken by each arrival.
func waitForWaiters(g *runGate, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.waiting < n {
		g.cond.Wait()
	}
}
