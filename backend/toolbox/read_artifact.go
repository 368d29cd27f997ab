package toolbox

import (
	"context"
	_ "embed"
	"errors"
	"fmt"

	"hermes/backend/runlog"
)

// ReadArtifactName is the tool that reads what distil cut from a long result.
const ReadArtifactName = "read_artifact"

// ReadArtifactMax is the most characters one read_artifact call returns.
const ReadArtifactMax = 20000

type readArtifactArgs struct {
	Ref    string `json:"ref" description:"The artifact named in a cut tool result, such as artifacts/RUN/CALL, exactly as written there."`
	Offset int    `json:"offset" default:"0" minimum:"0" description:"First character to return, counting from 0."`
	Limit  int    `json:"limit" default:"4000" minimum:"1" maximum:"20000" description:"Most characters to return."`
}

//go:embed read_artifact.md
var readArtifactMD string

// read_artifact lets the model read the part of a long tool result that
// it was not shown: the loop keeps every cut result whole as an artifact,
// and the note where it cut names the artifact and the offset to read from.
func init() {
	Register(Builtin{Skill: SkillFiles, Make: func(With) (Tool, bool) {
		return Func(ReadArtifactName, readArtifactMD, RiskRead, readArtifact), true
	}})
}

func readArtifact(_ context.Context, env Env, a readArtifactArgs) (string, error) {
	data, _, err := runlog.ReadArtifact(env.Home, a.Ref, 0, 0)
	switch {
	case errors.Is(err, runlog.ErrArtifactNotFound):
		return "", Errorf("there is no artifact %s; use the ref exactly as the cut tool result names it", a.Ref)
	case errors.Is(err, runlog.ErrBadArtifactRef):
		return "", Errorf("%s is not an artifact ref; refs look like artifacts/RUN/CALL, as the cut tool result names them", a.Ref)
	case err != nil:
		return "", err
	}
	// Offsets count characters, as the note of the cut does.
	runes := []rune(string(data))
	if a.Offset >= len(runes) {
		return "", Errorf("offset %d is past the end of %s, which has %d characters; read from an offset below %d",
			a.Offset, a.Ref, len(runes), len(runes))
	}
	end := min(a.Offset+a.Limit, len(runes))
	out := string(runes[a.Offset:end])
	if end < len(runes) {
		out += fmt.Sprintf("\n[characters %d to %d of %d; to read on, call %s with offset %d]", a.Offset, end, len(runes), ReadArtifactName, end)
	}
	return out, nil
}
