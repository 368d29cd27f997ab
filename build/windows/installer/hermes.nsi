; The Windows setup program of Hermes: a per-user install, no administrator
; rights, into %LOCALAPPDATA%\Programs\Hermes, with a Start-menu entry,
; hermes on the user's PATH and an uninstaller that keeps %USERPROFILE%\.hermes.
; scripts/release.sh builds it with makensis:
;
;   makensis -DVERSION=1.2.0 -DVERSION4=1.2.0.0 -DBINARY=hermes.exe -DLAUNCHER=hermes.com \
;     -DICON=icon.ico -DWEBVIEW2_SETUP=MicrosoftEdgeWebview2Setup.exe \
;     -DOUTFILE=Hermes-1.2.0-windows-amd64-setup.exe hermes.nsi
;
; hermes.exe is the desktop build, a GUI program; hermes.com (launcher/) is
; the console program that `hermes` in a terminal runs, which runs it.
;
; Silent install: setup.exe /S [/D=FOLDER]; silent uninstall: uninstall.exe /S.
; Exit codes: 0 done; 1 cancelled; 2 not 64-bit Windows 10 or later; 3 Hermes
; from this folder still running after setup closed its windows and stopped it.

Unicode true
; 64-bit like hermes.exe; it also runs where only 64-bit programs can.
Target amd64-unicode
ManifestDPIAware true
RequestExecutionLevel user
SetCompressor /SOLID lzma

!macro REQUIRE NAME
  !ifndef ${NAME}
    !error "define ${NAME} with -D${NAME}=... (see the top of this file)"
  !endif
!macroend
!insertmacro REQUIRE VERSION
!insertmacro REQUIRE VERSION4
!insertmacro REQUIRE BINARY
!insertmacro REQUIRE LAUNCHER
!insertmacro REQUIRE ICON
!insertmacro REQUIRE WEBVIEW2_SETUP
!insertmacro REQUIRE OUTFILE

!define PRODUCT "Hermes"
!define EXE "hermes.exe"
!define LAUNCHER_NAME "hermes.com"
!define UNINSTALLER "uninstall.exe"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Hermes"
!define APP_KEY "Software\Hermes"
; hermes:// links open a run in the window (backend/desktoplink): a toast's
; click carries one, which Windows hands to hermes.exe.
!define PROTOCOL_KEY "Software\Classes\hermes"
; Where the toasts' sender (backend/notify) names Hermes for the Action Center.
!define TOAST_KEY "Software\Classes\AppUserModelId\${PRODUCT}"
; WebView2's Evergreen runtime, as Microsoft's distribution guide says to
; look for it: per machine, then per user.
!define WEBVIEW2_GUID "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"
!define WEBVIEW2_MACHINE "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_GUID}"
!define WEBVIEW2_USER "Software\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_GUID}"
; The class of Wails's windows: WM_CLOSE to it closes Hermes as its close
; button does, so runs stop at a safe point.
!define WINDOW_CLASS "wailsWindow"
; A value of NSIS_MAX_STRLEN characters or more was cut when read: such a
; PATH is never written back.
!define /math PATH_MAX ${NSIS_MAX_STRLEN} - 2

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\Hermes"
InstallDirRegKey HKCU "${APP_KEY}" "InstallDir"
ShowInstDetails show
ShowUninstDetails show
BrandingText "Hermes ${VERSION}"

VIProductVersion "${VERSION4}"
VIFileVersion "${VERSION4}"
VIAddVersionKey /LANG=0 "ProductName" "${PRODUCT}"
VIAddVersionKey /LANG=0 "CompanyName" "Hermes"
VIAddVersionKey /LANG=0 "LegalCopyright" "Hermes contributors"
VIAddVersionKey /LANG=0 "FileDescription" "Hermes ${VERSION} setup"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "WinVer.nsh"
!include "x64.nsh"
!include "FileFunc.nsh"
!include "WinMessages.nsh"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE}"
!define MUI_FINISHPAGE_RUN_TEXT "$(OpenHermes)"

!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

; Setup speaks the user's language when it is one of these.
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "SimpChinese"

LangString OpenHermes ${LANG_ENGLISH} "Open Hermes"
LangString OpenHermes ${LANG_SIMPCHINESE} "打开 Hermes"
LangString NeedsWindows10 ${LANG_ENGLISH} "Hermes needs 64-bit Windows 10 or later."
LangString NeedsWindows10 ${LANG_SIMPCHINESE} "Hermes 需要 64 位 Windows 10 或更高版本。"
LangString Running ${LANG_ENGLISH} "Hermes is running from $INSTDIR.$\r$\n$\r$\nOK closes it: its window closes as with its close button (runs stop at a safe point), and hermes commands started from this folder are stopped. A stopped run resumes later with hermes resume RUN_ID.$\r$\n$\r$\nCancel leaves it running and setup changes nothing."
LangString Running ${LANG_SIMPCHINESE} "Hermes 正在从 $INSTDIR 运行。$\r$\n$\r$\n按“确定”关闭它：窗口会像点关闭按钮一样关闭（运行在安全点停下），从此文件夹启动的 hermes 命令会被终止。停下的运行之后可用 hermes resume RUN_ID 继续。$\r$\n$\r$\n按“取消”则让它继续运行，安装程序不做任何更改。"
LangString StillRunning ${LANG_ENGLISH} "Hermes from $INSTDIR is still running, so its files cannot be replaced. Close it (and the hermes commands started from that folder), then press Retry; Cancel stops setup without changing anything."
LangString StillRunning ${LANG_SIMPCHINESE} "来自 $INSTDIR 的 Hermes 仍在运行，无法替换其文件。请关闭它（以及从该文件夹启动的 hermes 命令），然后按“重试”；按“取消”则停止安装，不做任何更改。"
LangString Closing ${LANG_ENGLISH} "Closing Hermes running from $INSTDIR"
LangString Closing ${LANG_SIMPCHINESE} "正在关闭从 $INSTDIR 运行的 Hermes"
LangString PathAdded ${LANG_ENGLISH} "Added $INSTDIR to your PATH: hermes works in a new terminal."
LangString PathAdded ${LANG_SIMPCHINESE} "已将 $INSTDIR 加入 PATH：在新打开的终端中即可使用 hermes。"
LangString PathTooLong ${LANG_ENGLISH} "Your PATH is too long for setup to change it safely, so it was left as it is. To run hermes from a terminal, add $INSTDIR to it in Settings > System > About > Advanced system settings > Environment Variables."
LangString PathTooLong ${LANG_SIMPCHINESE} "你的 PATH 太长，安装程序无法安全地修改，因此未做更改。若要在终端中运行 hermes，请在“设置 > 系统 > 关于 > 高级系统设置 > 环境变量”中把 $INSTDIR 加入 PATH。"
LangString PathLeft ${LANG_ENGLISH} "Your PATH is too long for the uninstaller to change it safely: remove $INSTDIR from it in Settings > System > About > Advanced system settings > Environment Variables."
LangString PathLeft ${LANG_SIMPCHINESE} "你的 PATH 太长，卸载程序无法安全地修改：请在“设置 > 系统 > 关于 > 高级系统设置 > 环境变量”中把 $INSTDIR 从 PATH 中删除。"
LangString WebView2Installing ${LANG_ENGLISH} "Installing Microsoft Edge WebView2, which draws Hermes's window"
LangString WebView2Installing ${LANG_SIMPCHINESE} "正在安装 Microsoft Edge WebView2（Hermes 的窗口需要它）"
LangString WebView2Failed ${LANG_ENGLISH} "Microsoft Edge WebView2 could not be installed (no network?). Hermes's window needs it; the hermes commands work without it. Install the WebView2 Runtime from Microsoft's website, or run this setup again when online."
LangString WebView2Failed ${LANG_SIMPCHINESE} "无法安装 Microsoft Edge WebView2（没有网络？）。Hermes 的窗口需要它，hermes 命令不需要。请从微软网站安装 WebView2 Runtime，或联网后再次运行本安装程序。"
LangString HomeKept ${LANG_ENGLISH} "Your runs, settings and keys in $PROFILE\.hermes were kept; delete that folder to remove them too."
LangString HomeKept ${LANG_SIMPCHINESE} "你在 $PROFILE\.hermes 中的运行记录、设置和密钥已保留；如需一并删除，请删除该文件夹。"

Var pathResult ; the PATH without this install's folder
Var pathFound  ; "1" when the PATH holds this install's folder

Function .onInit
  SetShellVarContext current
  SetRegView 64
  ${IfNot} ${RunningX64}
  ${OrIfNot} ${AtLeastWin10}
    ${IfNot} ${Silent}
      MessageBox MB_OK|MB_ICONSTOP "$(NeedsWindows10)"
    ${EndIf}
    SetErrorLevel 2
    Quit
  ${EndIf}
FunctionEnd

Function un.onInit
  SetShellVarContext current
  SetRegView 64
FunctionEnd

; IN_USE sets $0 to 1 when $INSTDIR\FILE cannot be opened for writing.
!macro IN_USE FILE
  ${If} ${FileExists} "$INSTDIR\${FILE}"
    ClearErrors
    FileOpen $1 "$INSTDIR\${FILE}" a
    ${If} ${Errors}
      StrCpy $0 1
    ${Else}
      FileClose $1
    ${EndIf}
  ${EndIf}
!macroend

; CloseRunning and the PATH functions are needed by both the installer and
; the uninstaller, which NSIS keeps apart by the "un." prefix.
!macro SHARED un

; ${un}ForEachRunning calls the action in $9 ("close": WM_CLOSE to its
; windows, counted in $8; "kill": TerminateProcess) on every process whose
; image is $INSTDIR\hermes.exe, found by path so that a Hermes run from
; elsewhere is left alone.
Function ${un}ForEachRunning
  Push $0
  Push $1
  Push $2
  Push $3
  Push $4
  Push $5
  Push $6
  StrCpy $8 0
  System::Call 'kernel32::CreateToolhelp32Snapshot(i 2, i 0) p .r0'
  ${If} $0 P= -1
    Goto done
  ${EndIf}
  ; PROCESSENTRY32W is 568 bytes on 64-bit Windows; th32ProcessID is its
  ; third DWORD.
  System::Alloc 568
  Pop $1
  System::Call '*$1(i 568)'
  System::Call 'kernel32::Process32FirstW(p r0, p r1) i .r2'
  ${DoWhile} $2 != 0
    System::Call '*$1(i, i, i .r3)'
    System::Call 'kernel32::OpenProcess(i 0x101001, i 0, i r3) p .r4'
    ${If} $4 P<> 0
      System::Call 'kernel32::QueryFullProcessImageNameW(p r4, i 0, w .r5, *i ${NSIS_MAX_STRLEN}) i .r6'
      ${If} $6 != 0
      ${AndIf} $5 == "$INSTDIR\${EXE}"
        ${If} $9 == "close"
          StrCpy $6 0
          ${Do}
            System::Call 'user32::FindWindowExW(p 0, p r6, w "${WINDOW_CLASS}", p 0) p .r6'
            ${If} $6 P= 0
              ${Break}
            ${EndIf}
            System::Call 'user32::GetWindowThreadProcessId(p r6, *i .r5)'
            ${If} $5 = $3
              System::Call 'user32::PostMessageW(p r6, i ${WM_CLOSE}, p 0, p 0)'
              IntOp $8 $8 + 1
            ${EndIf}
          ${Loop}
        ${Else}
          System::Call 'kernel32::TerminateProcess(p r4, i 1)'
          System::Call 'kernel32::WaitForSingleObject(p r4, i 5000)'
        ${EndIf}
      ${EndIf}
      System::Call 'kernel32::CloseHandle(p r4)'
    ${EndIf}
    System::Call 'kernel32::Process32NextW(p r0, p r1) i .r2'
  ${Loop}
  System::Free $1
  System::Call 'kernel32::CloseHandle(p r0)'
done:
  Pop $6
  Pop $5
  Pop $4
  Pop $3
  Pop $2
  Pop $1
  Pop $0
FunctionEnd

; ${un}InUse sets $0 to 1 when hermes.exe or hermes.com in $INSTDIR is
; running: Windows refuses to open a running program's file for writing
; (renaming it would succeed, so it cannot tell).
Function ${un}InUse
  StrCpy $0 0
  !insertmacro IN_USE "${EXE}"
  !insertmacro IN_USE "${LAUNCHER_NAME}"
FunctionEnd

; ${un}CloseRunning makes sure no Hermes runs from $INSTDIR before its
; files are replaced or removed: it asks (a silent setup does not), closes
; its windows and waits up to 20 s for runs to stop at a safe point, then
; stops what is left. Setup quits, changing nothing, when it cannot.
Function ${un}CloseRunning
  Call ${un}InUse
  ${If} $0 = 0
    Return
  ${EndIf}
  ${IfNot} ${Silent}
    MessageBox MB_OKCANCEL|MB_ICONEXCLAMATION "$(Running)" IDOK close
    SetErrorLevel 1
    Quit
  ${EndIf}
close:
  DetailPrint "$(Closing)"
  StrCpy $9 "close"
  Call ${un}ForEachRunning
  ; Only a window can close itself; hermes commands have none to wait for.
  ${If} $8 = 0
    Goto kill
  ${EndIf}
  ${For} $2 1 40
    Sleep 500
    Call ${un}InUse
    ${If} $0 = 0
      Return
    ${EndIf}
  ${Next}
kill:
  StrCpy $9 "kill"
  Call ${un}ForEachRunning
  ; A hermes.com ends right after the hermes.exe it waits for.
  ${For} $2 1 10
    Call ${un}InUse
    ${If} $0 = 0
      Return
    ${EndIf}
    Sleep 500
  ${Next}
  ${IfNot} ${Silent}
    MessageBox MB_RETRYCANCEL|MB_ICONEXCLAMATION "$(StillRunning)" IDRETRY close
  ${EndIf}
  SetErrorLevel 3
  Quit
FunctionEnd

; ${un}ScanPath reads the user's PATH into $0 and sets $pathResult to it
; without this install's folder (with or without a trailing backslash;
; Windows compares names without case, as StrCmp does) and $pathFound to
; whether it was there. $0 is "" when the PATH was too long to read whole.
Function ${un}ScanPath
  ReadRegStr $0 HKCU "Environment" "Path"
  StrLen $1 $0
  ${If} $1 >= ${PATH_MAX}
    StrCpy $0 ""
    StrCpy $pathFound "toolong"
    Return
  ${EndIf}
  StrCpy $pathResult ""
  StrCpy $pathFound 0
  StrCpy $2 ""  ; the element read so far
  StrCpy $3 0   ; where in $0
  StrCpy $4 1   ; no element written yet
  ${Do}
    StrCpy $5 $0 1 $3
    ${If} $5 == ";"
    ${OrIf} $5 == ""
      ${If} $2 == "$INSTDIR"
      ${OrIf} $2 == "$INSTDIR\"
        StrCpy $pathFound 1
      ${ElseIf} $4 = 1
        StrCpy $pathResult $2
        StrCpy $4 0
      ${Else}
        StrCpy $pathResult "$pathResult;$2"
      ${EndIf}
      StrCpy $2 ""
      ${If} $5 == ""
        ${Break}
      ${EndIf}
    ${Else}
      StrCpy $2 "$2$5"
    ${EndIf}
    IntOp $3 $3 + 1
  ${Loop}
FunctionEnd

!macroend
!insertmacro SHARED ""
!insertmacro SHARED "un."

; AddToPath puts $INSTDIR at the end of the user's PATH, once, keeping its
; type (REG_EXPAND_SZ, so entries like %USERPROFILE%\... still expand), and
; tells running programs that the environment changed.
Function AddToPath
  Call ScanPath
  ${If} $pathFound == "toolong"
    DetailPrint "$(PathTooLong)"
    ${IfNot} ${Silent}
      MessageBox MB_OK|MB_ICONINFORMATION "$(PathTooLong)"
    ${EndIf}
    Return
  ${EndIf}
  ${If} $pathFound = 1
    Return
  ${EndIf}
  StrLen $1 "$0;$INSTDIR"
  ${If} $1 >= ${PATH_MAX}
    DetailPrint "$(PathTooLong)"
    ${IfNot} ${Silent}
      MessageBox MB_OK|MB_ICONINFORMATION "$(PathTooLong)"
    ${EndIf}
    Return
  ${EndIf}
  ${If} $0 == ""
    StrCpy $0 "$INSTDIR"
  ${ElseIf} $0 == ";"
    StrCpy $0 "$INSTDIR"
  ${Else}
    StrCpy $1 $0 1 -1
    ${If} $1 == ";"
      StrCpy $0 "$0$INSTDIR"
    ${Else}
      StrCpy $0 "$0;$INSTDIR"
    ${EndIf}
  ${EndIf}
  WriteRegExpandStr HKCU "Environment" "Path" $0
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
  DetailPrint "$(PathAdded)"
FunctionEnd

Function un.RemoveFromPath
  Call un.ScanPath
  ${If} $pathFound == "toolong"
    DetailPrint "$(PathLeft)"
    ${IfNot} ${Silent}
      MessageBox MB_OK|MB_ICONINFORMATION "$(PathLeft)"
    ${EndIf}
    Return
  ${EndIf}
  ${If} $pathFound != 1
    Return
  ${EndIf}
  ${If} $pathResult == ""
    DeleteRegValue HKCU "Environment" "Path"
  ${Else}
    WriteRegExpandStr HKCU "Environment" "Path" $pathResult
  ${EndIf}
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
FunctionEnd

; WebView2 draws the window; Windows 11 has it, Windows 10 may not. As
; Wails's own installer does, run Microsoft's bootstrapper when it is
; missing; without administrator rights it installs for this user.
Function WebView2
  ReadRegStr $0 HKLM "${WEBVIEW2_MACHINE}" "pv"
  ${If} $0 != ""
  ${AndIf} $0 != "0.0.0.0"
    Return
  ${EndIf}
  ReadRegStr $0 HKCU "${WEBVIEW2_USER}" "pv"
  ${If} $0 != ""
  ${AndIf} $0 != "0.0.0.0"
    Return
  ${EndIf}
  DetailPrint "$(WebView2Installing)"
  InitPluginsDir
  File "/oname=$PLUGINSDIR\MicrosoftEdgeWebview2Setup.exe" "${WEBVIEW2_SETUP}"
  ClearErrors
  ExecWait '"$PLUGINSDIR\MicrosoftEdgeWebview2Setup.exe" /silent /install' $0
  ${If} ${Errors}
  ${OrIf} $0 != 0
    DetailPrint "$(WebView2Failed)"
    ${IfNot} ${Silent}
      MessageBox MB_OK|MB_ICONEXCLAMATION "$(WebView2Failed)"
    ${EndIf}
  ${EndIf}
FunctionEnd

Section "Hermes"
  Call CloseRunning
  SetOutPath "$INSTDIR"
  File "/oname=${EXE}" "${BINARY}"
  File "/oname=${LAUNCHER_NAME}" "${LAUNCHER}"
  ; Binaries an update moved aside, and no longer running.
  Delete "$INSTDIR\${EXE}.old-*"
  WriteUninstaller "$INSTDIR\${UNINSTALLER}"

  CreateShortCut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0

  WriteRegStr HKCU "${APP_KEY}" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "Hermes contributors"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${EXE},0"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\${UNINSTALLER}"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\${UNINSTALLER}" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" "$0"

  WriteRegStr HKCU "${PROTOCOL_KEY}" "" "URL:Hermes"
  WriteRegStr HKCU "${PROTOCOL_KEY}" "URL Protocol" ""
  WriteRegStr HKCU "${PROTOCOL_KEY}\DefaultIcon" "" "$INSTDIR\${EXE},0"
  WriteRegStr HKCU "${PROTOCOL_KEY}\shell\open\command" "" '"$INSTDIR\${EXE}" "%1"'

  Call AddToPath
  Call WebView2
SectionEnd

Section "Uninstall"
  Call un.CloseRunning
  Delete "$INSTDIR\${EXE}"
  Delete "$INSTDIR\${LAUNCHER_NAME}"
  Delete "$INSTDIR\${EXE}.old-*"
  Delete "$INSTDIR\${UNINSTALLER}"
  ; Only an empty folder is removed: nothing the user put there is lost.
  RMDir "$INSTDIR"
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  ; WebView2's cache of the window (Wails keeps it in %APPDATA%\hermes.exe);
  ; the runs, settings and keys in %USERPROFILE%\.hermes stay.
  RMDir /r "$APPDATA\${EXE}"
  Call un.RemoveFromPath
  DeleteRegKey HKCU "${UNINST_KEY}"
  DeleteRegKey HKCU "${APP_KEY}"
  DeleteRegKey HKCU "${PROTOCOL_KEY}"
  DeleteRegKey HKCU "${TOAST_KEY}"
  DetailPrint "$(HomeKept)"
SectionEnd
