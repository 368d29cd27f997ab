package config_test

// The chat platforms register their keys of [bot] (chat.Register), so that
// this package's tests check and document the platforms hermes links: the
// reference in docs/config.md and `hermes config init` are theirs too.
import _ "hermes/backend/platforms"
