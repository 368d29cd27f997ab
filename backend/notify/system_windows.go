package notify

import (
	"fmt"
	"sync"
)

// toastNotifier shows notes as toasts in the Action Center. A click comes
// back to Hermes as a link (Note.Link) that the system starts hermes.exe
// with, not through this process: Clicks stays quiet.
type toastNotifier struct {
	app    string
	clicks chan string
	once   sync.Once
}

// New returns the Action Center's notifier. app is the application's name
// that the toasts carry.
func New(app string) (Notifier, error) {
	return &toastNotifier{app: app, clicks: make(chan string)}, nil
}

func (n *toastNotifier) Send(note Note) error {
	t := toastOf(n.app, note)
	if err := t.Push(); err != nil {
		return fmt.Errorf("send a desktop notification: %w", err)
	}
	return nil
}

func (n *toastNotifier) Clicks() <-chan string { return n.clicks }

func (n *toastNotifier) Close() error {
	n.once.Do(func() { close(n.clicks) })
	return nil
}
