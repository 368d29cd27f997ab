package sandbox

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// seatbeltServices are the system services a sandboxed program may look up
// on macOS: logging, notifications, user and group names, file events,
// configuration; with the network, name resolution and certificate checks.
// The keychain's and the window server's are left out.
var seatbeltServices = []string{
	"com.apple.system.logger", "com.apple.logd", "com.apple.system.notification_center",
	"com.apple.system.opendirectoryd.libinfo", "com.apple.FSEvents",
	"com.apple.SystemConfiguration.configd", "com.apple.CoreServices.coreservicesd", "com.apple.lsd.mapdb",
}

var seatbeltNetworkServices = []string{"com.apple.dnssd.service", "com.apple.trustd", "com.apple.trustd.agent"}

// seatbeltProfile is p's sandbox as a Seatbelt profile for sandbox-exec,
// the same rules as Landlock's on Linux: everything is denied but what is
// allowed; the file system is readable; the hidden paths are not; the
// workspace (in Workspace mode), tmp, cache, the writable folders and the
// devices are writable; the network is allowed only with p.Network. A
// later rule overrides an earlier one, so paths go from the shallowest to
// the deepest and the nearest wins, as carve does on Linux.
func seatbeltProfile(p Policy, tmp, cache string) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("(allow process-exec process-fork)\n")
	b.WriteString("(allow signal (target same-sandbox))\n(allow process-info* (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read)\n(allow ipc-posix-shm* ipc-posix-sem)\n(allow pseudo-tty)\n")
	services := slices.Clone(seatbeltServices)
	if p.Network {
		services = append(services, seatbeltNetworkServices...)
		b.WriteString("(allow network*)\n(allow system-socket)\n")
	}
	b.WriteString("(allow mach-lookup")
	for _, s := range services {
		fmt.Fprintf(&b, " (global-name %s)", quoteSBPL(s))
	}
	b.WriteString(")\n(allow file-read*)\n")

	type entry struct {
		path           string
		hidden, readly bool
	}
	var entries []entry
	hidden := p.HiddenPaths()
	for _, h := range hidden {
		entries = append(entries, entry{path: h, hidden: true})
	}
	for _, g := range p.grants(tmp, cache, hidden) {
		if g.path != "/" {
			entries = append(entries, entry{path: filepath.Clean(g.path), readly: !g.write})
		}
	}
	// Shallow first, so deeper rules override; at one depth, hidden last.
	slices.SortStableFunc(entries, func(a, b entry) int {
		if c := cmp.Compare(strings.Count(a.path, "/"), strings.Count(b.path, "/")); c != 0 {
			return c
		}
		if a.hidden != b.hidden {
			if a.hidden {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.path, b.path)
	})
	for _, e := range entries {
		filter := fmt.Sprintf("(subpath %s)", quoteSBPL(e.path))
		if isDevice(e.path) && !slices.Contains(deviceDirs, e.path) {
			filter = fmt.Sprintf("(literal %s)", quoteSBPL(e.path))
		}
		switch {
		case e.hidden:
			fmt.Fprintf(&b, "(deny file-read* file-write* %s)\n", filter)
		case e.readly:
			fmt.Fprintf(&b, "(allow file-read* %s)\n", filter)
		default:
			fmt.Fprintf(&b, "(allow file-read* file-write* %s)\n", filter)
		}
	}
	b.WriteString("(allow file-ioctl (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+$\"))\n")
	return b.String()
}

// quoteSBPL quotes s as a string of the profile language, whose escapes
// are C's.
func quoteSBPL(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
