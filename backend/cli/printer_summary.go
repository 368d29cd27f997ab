package cli

import (
	"strings"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// entitiesShown is how many of the values kept beside the summary the
// terminal names; the rest are counted, as a dump of random text may leave
// hundreds.
const entitiesShown = 5

// entitiesLine tells how many values a compression kept beside the summary
// and names the first few, those it added first; "" when it kept none.
func entitiesLine(d event.SummaryUpdatedData) string {
	if len(d.Entities) == 0 && len(d.EntitiesAdded) == 0 {
		return ""
	}
	list := d.EntitiesAdded
	if len(list) == 0 {
		list = d.Entities
	}
	names := strings.Join(list[:min(len(list), entitiesShown)], ", ")
	if len(list) > entitiesShown {
		names += ", " + i18n.T("cli.print.entities_more", len(list)-entitiesShown)
	}
	return i18n.T("cli.print.entities_kept", max(len(d.Entities), len(d.EntitiesAdded)), len(d.EntitiesAdded), names)
}
