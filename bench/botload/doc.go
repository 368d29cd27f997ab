// Package botload is the bot's load test with the load generator in a
// process of its own: BenchmarkBotLoad starts a real `hermes bot` (the
// binary HERMES_BIN names) against a fake WeCom API and a scripted model
// on loopback, and posts every user's signed callbacks at it at once, so
// the ack latency it prints is not shared with the generator's goroutines.
// bench/bot.sh builds the binary and runs it; `go test ./...` compiles it
// but runs no benchmark.
package botload
