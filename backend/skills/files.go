package skills

// FileTools returns the built-in tools that list, read and write files in
// the run's workspace: list_files, read_file and write_file. Every path they
// take is confined to Env.Workspace, less what environ's sandbox hides from
// commands (nil: its defaults).
func FileTools(environ *Environ) []Tool {
	return []Tool{listFilesTool(environ), readFileTool(environ), writeFileTool(environ)}
}
