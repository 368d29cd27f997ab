package eval

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// JUnit test report types, as CI servers read them: one testsuite per
// variant, one testcase per run of a task.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes ev's results as a JUnit XML report: a failed check is
// a failure, a run that could not be checked an error, a run the judge
// could not grade skipped (neither passed nor failed).
func WriteJUnit(w io.Writer, ev *Eval) error {
	top := junitSuites{Name: ev.Suite}
	for _, v := range ev.Variants {
		s := junitSuite{Name: ev.Suite + "/" + v.Label()}
		var ms int64
		for _, r := range ev.Results {
			if r.Variant != v.Label() {
				continue
			}
			c := junitCase{
				Name:      fmt.Sprintf("%s#%d", r.Task, r.Rep+1),
				ClassName: ev.Suite + "." + v.Label(),
				Time:      seconds(r.DurationMS),
				SystemOut: "run " + r.RunID,
			}
			ms += r.DurationMS
			switch {
			case r.Ungraded:
				c.Skipped = &junitProblem{Message: clip(r.Error, 200), Text: r.Error}
				s.Skipped++
			case r.Error != "":
				c.Error = &junitProblem{Message: clip(r.Error, 200), Text: r.Error}
				s.Errors++
			case !r.Pass:
				var lines []string
				first := ""
				for _, ch := range r.Checks {
					mark := "ok  "
					if !ch.Pass {
						mark = "FAIL"
						if first == "" {
							first = ch.Kind + ": " + ch.Detail
						}
					}
					lines = append(lines, fmt.Sprintf("%s %s: %s", mark, ch.Kind, ch.Detail))
				}
				c.Failure = &junitProblem{Message: clip(first, 200), Text: strings.Join(lines, "\n")}
				s.Failures++
			}
			s.Tests++
			s.Cases = append(s.Cases, c)
		}
		s.Time = seconds(ms)
		top.Tests += s.Tests
		top.Failures += s.Failures
		top.Errors += s.Errors
		top.Skipped += s.Skipped
		top.Suites = append(top.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(top); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }
