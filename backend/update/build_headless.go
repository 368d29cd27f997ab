//go:build headless

package update

// headlessBuild: this Hermes was built without the window, and a bare
// install of it updates from a headless build (FormHeadless).
const headlessBuild = true
