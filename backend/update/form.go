package update

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Form is how Hermes was installed, which decides what an update replaces
// and which artefact of a release it takes.
type Form string

const (
	// FormBinary is a bare binary, or one unpacked from a tar.gz: the
	// update replaces the file.
	FormBinary Form = "binary"
	// FormInstaller is a per-user install by the Windows setup program:
	// the update replaces hermes.exe in place with the bare binary, so the
	// Start-menu entry, PATH and the uninstaller keep pointing at it.
	FormInstaller Form = "installer"
	// FormPackage is a file a package manager (dpkg) owns: Hermes never
	// replaces it, and the update is the new package, to install with it.
	FormPackage Form = "package"
	// FormBundle is a macOS application bundle: the whole X.app is
	// replaced, since its signature covers every file in it.
	FormBundle Form = "bundle"
	// FormHeadless is a bare binary built without the window (-tags
	// headless), as servers run: it updates from the release's headless
	// build, not from the desktop app that is its platform's binary, which
	// would need GTK and WebKitGTK there. A release without one for the
	// platform gives its binary, headless already where there is no
	// desktop build.
	FormHeadless Form = "headless"
)

// forms are the forms a release can publish an artefact for.
var forms = []Form{FormBinary, FormInstaller, FormPackage, FormBundle, FormHeadless}

// ParseForm reads a form's name; "" is FormBinary.
func ParseForm(s string) (Form, bool) {
	if s == "" {
		return FormBinary, true
	}
	f := Form(strings.ToLower(s))
	return f, slices.Contains(forms, f)
}

// artefactForm is the form of the artefact an install of form f updates
// from: an installer's install takes the bare binary, which keeps what the
// setup program registered valid, where running a new setup would need a
// window and might ask for elevation.
func (f Form) artefactForm() Form {
	if f == FormInstaller {
		return FormBinary
	}
	return f
}

// dpkgInfo is where dpkg lists the files of each installed package, one
// PACKAGE.list (or PACKAGE:ARCH.list) each, under the file-system root.
const dpkgInfo = "var/lib/dpkg/info"

// DetectForm says how the executable at exe was installed, for the
// operating system goos. link is the path exe was started as when that
// was a symlink to it ("" otherwise), since a package may own the link's
// path or the file's. root is the file system's root ("" is "/"), under
// which the dpkg database is read; tests point it at a fake one.
func DetectForm(exe, link, goos, root string) Form {
	if bundleOf(exe) != "" {
		return FormBundle
	}
	switch goos {
	case "windows":
		if hasUninstaller(filepath.Dir(exe)) {
			return FormInstaller
		}
	case "linux":
		if dpkgOwns(root, exe, link) {
			return FormPackage
		}
	}
	return FormBinary
}

// bundleOf is the X.app directory whose executable exe is
// (X.app/Contents/MacOS/NAME), or "".
func bundleOf(exe string) string {
	macos := filepath.Dir(exe)
	contents := filepath.Dir(macos)
	app := filepath.Dir(contents)
	if filepath.Base(macos) != "MacOS" || filepath.Base(contents) != "Contents" ||
		!strings.EqualFold(filepath.Ext(app), ".app") || filepath.Base(app) == ".app" {
		return ""
	}
	return app
}

// hasUninstaller says whether the setup program's uninstaller lies in dir,
// as it does in a per-user install.
func hasUninstaller(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		name := strings.ToLower(e.Name())
		if !e.IsDir() && strings.HasPrefix(name, "uninst") && strings.HasSuffix(name, ".exe") {
			return true
		}
	}
	return false
}

// dpkgOwns says whether a package in the dpkg database under root lists exe
// (or link) among its files. Only the places a package installs to are
// looked up: a binary in /usr/local, a home or a temporary folder is never
// a package's, and the database is not read for it. The lists of a package
// named hermes are read first; the others only when none of them names it.
func dpkgOwns(root, exe, link string) bool {
	if root == "" {
		root = string(filepath.Separator)
	}
	var wanted [][]byte
	for _, p := range []string{exe, link} {
		if p == "" {
			continue
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		for _, name := range usrMergeAliases("/" + filepath.ToSlash(rel)) {
			if packagePlace(name) {
				wanted = append(wanted, []byte(name))
			}
		}
	}
	if len(wanted) == 0 {
		return false
	}
	lists, _ := filepath.Glob(filepath.Join(root, dpkgInfo, "*.list"))
	// Those of a package named hermes first: the common case reads one file.
	slices.SortStableFunc(lists, func(a, b string) int {
		ha, hb := strings.HasPrefix(filepath.Base(a), "hermes"), strings.HasPrefix(filepath.Base(b), "hermes")
		switch {
		case ha && !hb:
			return -1
		case hb && !ha:
			return 1
		}
		return 0
	})
	for _, list := range lists {
		if listNames(list, wanted) {
			return true
		}
	}
	return false
}

// packagePlace says whether a package may install the file at path (an
// absolute slash path): the system's folders, never /usr/local.
func packagePlace(path string) bool {
	if strings.HasPrefix(path, "/usr/local/") {
		return false
	}
	for _, p := range []string{"/usr/", "/opt/", "/bin/", "/sbin/", "/lib/", "/lib64/"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// usrMergeAliases is path and, on a system whose /bin, /sbin and /lib are
// links into /usr, the name a package may list it under instead.
func usrMergeAliases(path string) []string {
	for _, dir := range []string{"/bin/", "/sbin/", "/lib/", "/lib64/"} {
		if rest, ok := strings.CutPrefix(path, "/usr"+dir); ok {
			return []string{path, dir + rest}
		}
		if rest, ok := strings.CutPrefix(path, dir); ok {
			return []string{path, "/usr" + dir + rest}
		}
	}
	return []string{path}
}

// listNames says whether the dpkg file list at path has one of wanted as a
// line of its own.
func listNames(path string, wanted [][]byte) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for s.Scan() {
		line := s.Bytes()
		for _, w := range wanted {
			if bytes.Equal(line, w) {
				return true
			}
		}
	}
	return false
}

// PackageCommands are the commands that install the package at path: with
// apt, which also installs what it depends on, or with dpkg alone.
func PackageCommands(path string) (apt, dpkg string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // apt takes a path only when it starts with / or ./
	}
	q := shellQuote(path)
	return "sudo apt install " + q, "sudo dpkg -i " + q
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// path characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
