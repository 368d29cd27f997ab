//go:build !linux && !windows

package notify

import (
	"fmt"
	"sync"

	"github.com/gen2brain/beeep"
)

// systemNotifier shows notes through the OS's own notifications: the
// Notification Center on macOS. It tells this process of no click: a
// click brings the OS's default, and the window shows the run it showed.
type systemNotifier struct {
	clicks chan string
	once   sync.Once
}

// New returns the OS's notifier. app is the application's name that the
// notifications carry.
func New(app string) (Notifier, error) {
	beeep.AppName = app
	return &systemNotifier{clicks: make(chan string)}, nil
}

func (n *systemNotifier) Send(note Note) error {
	if err := beeep.Notify(note.Title, note.Body, ""); err != nil {
		return fmt.Errorf("send a desktop notification: %w", err)
	}
	return nil
}

func (n *systemNotifier) Clicks() <-chan string { return n.clicks }

func (n *systemNotifier) Close() error {
	n.once.Do(func() { close(n.clicks) })
	return nil
}
