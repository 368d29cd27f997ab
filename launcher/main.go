// Command launcher is hermes.com, the console half of Hermes on Windows.
//
// The desktop hermes.exe is a GUI program, so that the window opens
// without a console window beside it; but a terminal neither waits for a
// GUI program nor shows what it prints. The setup program installs this
// console program beside it as hermes.com: `hermes` typed in cmd or
// PowerShell runs it (.COM comes before .EXE in PATHEXT), and it runs
// hermes.exe with the same arguments and this console's handles, waits for
// it and exits with its code, as Visual Studio's devenv.com does for
// devenv.exe. hermes.exe attaches to this console (console_windows.go) and
// gets Ctrl-C itself; this process lets it decide and waits. It never
// changes between versions: updates replace hermes.exe only.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
)

func main() {
	self, err := os.Executable()
	if err != nil {
		fail("hermes.exe", err)
	}
	exe := filepath.Join(filepath.Dir(self), "hermes.exe")
	// Ctrl-C reaches every process of the console: hermes.exe stops at a
	// safe point, and this one must outlive it to pass on its exit code.
	signal.Ignore(os.Interrupt)
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	if exit, ok := errors.AsType[*exec.ExitError](err); ok {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		fail(exe, err)
	}
}

func fail(exe string, err error) {
	fmt.Fprintf(os.Stderr, "hermes: cannot start %s: %v; install Hermes again with its setup program\n"+
		"hermes：无法启动 %s：%v；请用安装程序重新安装 Hermes\n", exe, err, exe, err)
	os.Exit(1)
}
