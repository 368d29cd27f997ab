package vault

import (
	"encoding/json"

	"hermes/backend/toolbox"
)

// Preview is the change a vault tool's call would make, worked out without
// writing anything: what the approval dialog shows instead of the
// arguments. It is nil for a call that changes nothing (a daily note that
// exists) and for a tool that writes nothing or is not the vault's.
func (v *Vault) Preview(tool string, args json.RawMessage) (*Change, error) {
	var pl *plan
	var err error
	switch tool {
	case "append_note":
		var a appendNoteArgs
		if err = decodeArgs(args, &a); err == nil {
			pl, _, _, err = v.planAppend(a)
		}
	case "create_note":
		var a createNoteArgs
		if err = decodeArgs(args, &a); err == nil {
			pl, err = v.planCreate(a)
		}
	case "edit_note":
		var a editNoteArgs
		if err = decodeArgs(args, &a); err == nil {
			pl, err = v.planEditNote(a)
		}
	case "set_property":
		var a setPropertyArgs
		if err = decodeArgs(args, &a); err == nil {
			pl, err = v.planSetProperty(a)
		}
	case "rename_note":
		var a renameNoteArgs
		if err = decodeArgs(args, &a); err == nil {
			pl, err = v.planRename(a.Path, a.NewPath)
		}
	case "daily_note":
		var a dailyNoteArgs
		if err = decodeArgs(args, &a); err == nil {
			pl, _, _, err = v.planDaily(a)
		}
	default:
		return nil, nil
	}
	if err != nil || pl == nil {
		return nil, err
	}
	return pl.change(), nil
}

// decodeArgs reads a call's arguments as the tool would.
func decodeArgs(args json.RawMessage, into any) error {
	if len(args) == 0 {
		return nil
	}
	if err := json.Unmarshal(args, into); err != nil {
		return toolbox.Errorf("the arguments do not match the tool's parameters: %v", err)
	}
	return nil
}
