package main

import (
	"log"
	"os"

	"golang.org/x/sys/windows"
)

// attachParentProcess is AttachConsole's "the console of my parent".
const attachParentProcess = ^uintptr(0)

var attachConsoleProc = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// attachConsole gives a command its console. The desktop build is a GUI
// program (-H windowsgui), so that the window opens without a console
// window beside it; Windows then gives it no console, and what a command
// prints would go nowhere. With a command to run, it attaches to the
// console of the process that started it (hermes.com, or a shell) to print
// there and to get Ctrl-C; standard handles it was given (a file, a pipe,
// hermes.com's console) are kept. A console build already has its console,
// and a program started from Explorer has none to attach to: both are
// left as they are.
func attachConsole() {
	if r, _, _ := attachConsoleProc.Call(attachParentProcess); r == 0 {
		return
	}
	for _, s := range []struct {
		id   uint32
		file **os.File
		name string
		flag int
	}{
		{windows.STD_INPUT_HANDLE, &os.Stdin, "CONIN$", os.O_RDWR},
		{windows.STD_OUTPUT_HANDLE, &os.Stdout, "CONOUT$", os.O_RDWR},
		{windows.STD_ERROR_HANDLE, &os.Stderr, "CONOUT$", os.O_RDWR},
	} {
		if h, err := windows.GetStdHandle(s.id); err == nil && h != 0 && h != windows.InvalidHandle {
			continue
		}
		f, err := os.OpenFile(s.name, s.flag, 0)
		if err != nil {
			continue
		}
		_ = windows.SetStdHandle(s.id, windows.Handle(f.Fd()))
		*s.file = f
	}
	// The standard logger took os.Stderr before it was replaced.
	log.SetOutput(os.Stderr)
}
