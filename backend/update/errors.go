package update

import "errors"

var (
	// ErrNoFeed is returned when no feed URL is configured.
	ErrNoFeed = errors.New("no update feed configured")

	// ErrFeed is returned when the feed cannot be fetched or is not a valid
	// feed document.
	ErrFeed = errors.New("update feed unavailable or malformed")

	// ErrFeedSignature is returned when the feed is not signed by the trusted
	// key, so nothing it lists is believed.
	ErrFeedSignature = errors.New("update feed signature invalid")

	// ErrPublicKey is returned for a public or private key that cannot be
	// parsed or decrypted.
	ErrPublicKey = errors.New("invalid signing key")

	// ErrVersion is returned for a version that is not semantic (1.2.3), such
	// as a development build's "dev".
	ErrVersion = errors.New("not a release version")

	// ErrNoPlatform is returned when the newest release has no build for
	// this operating system and architecture.
	ErrNoPlatform = errors.New("no build for this platform")

	// ErrForm is returned for an install form Hermes does not know.
	ErrForm = errors.New("unknown install form")

	// ErrManaged is returned when Hermes was installed by a package manager
	// (dpkg), which owns its files: Hermes never replaces them, and the
	// update is the new package, to install with that package manager.
	ErrManaged = errors.New("installed by a package manager")

	// ErrDownload is returned when the artefact cannot be downloaded after
	// every attempt; the partial file is kept so the next attempt resumes.
	ErrDownload = errors.New("download failed")

	// ErrSize is returned when the server sends more or fewer bytes than the
	// feed says the artefact has.
	ErrSize = errors.New("artefact size differs from the feed")

	// ErrChecksum is returned when the artefact's SHA-256 differs from the
	// feed's.
	ErrChecksum = errors.New("artefact checksum mismatch")

	// ErrSignature is returned when the artefact's signature does not verify
	// with the trusted key.
	ErrSignature = errors.New("artefact signature invalid")

	// ErrHealth is returned when a new binary fails its health check; the
	// previous binary is in place, never replaced or put back.
	ErrHealth = errors.New("new version failed its health check")

	// ErrNoPrevious is returned by Rollback when no previous binary is kept.
	ErrNoPrevious = errors.New("no previous version to roll back to")

	// ErrMigration is returned when a migration fails; the files it could
	// change have been restored from their backup.
	ErrMigration = errors.New("migration failed")

	// ErrNotReady is returned by Checker.Apply before a release has been
	// downloaded and verified.
	ErrNotReady = errors.New("no downloaded update to apply")

	// ErrBusy is returned when another Hermes process is updating the same
	// home directory.
	ErrBusy = errors.New("another update is in progress")
)
