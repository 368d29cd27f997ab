package skills

// FileTools returns the built-in tools that list, read and write files in
// the run's workspace: list_files, read_file and write_file. Every path they
// take is confined to Env.Workspace.
func FileTools() []Tool {
	return []Tool{listFilesTool(), readFileTool(), writeFileTool()}
}
