@echo off
rem install-dsh.cmd - Command Prompt bootstrap: downloads install-dsh.ps1 and runs it with PowerShell.
rem   curl -fsSL "https://open-design.ai/install-dsh.cmd?version=1" -o "%TEMP%\install-dsh.cmd" && call "%TEMP%\install-dsh.cmd"
rem Arguments are passed to the PowerShell script (e.g. -NoLaunch). OD_DSH_PS1_URL overrides where the .ps1 comes
rem from; OD_DSH_BASE_URL is passed through to it (artifact layout: see install-dsh.ps1).
setlocal

rem BEGIN GENERATED VERSION POLICY (scripts/gen-dsh-installers.ts from server/dsh/version-policy.json)
set "OD_DSH_BOOTSTRAP_VERSION=1"
rem END GENERATED VERSION POLICY

if not defined OD_DSH_PS1_URL set "OD_DSH_PS1_URL=https://open-design.ai/install-dsh.ps1?version=%OD_DSH_BOOTSTRAP_VERSION%"
set "OD_DSH_PS1=%TEMP%\install-dsh-%RANDOM%%RANDOM%.ps1"

curl.exe -fsSL "%OD_DSH_PS1_URL%" -o "%OD_DSH_PS1%"
if errorlevel 1 (
  echo install-dsh: error: could not download %OD_DSH_PS1_URL% 1>&2
  exit /b 1
)
powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%OD_DSH_PS1%" %*
set "OD_DSH_EXIT=%ERRORLEVEL%"
del /q "%OD_DSH_PS1%" >nul 2>&1
if not "%OD_DSH_EXIT%"=="0" (
  echo install-dsh: error: install-dsh.ps1 failed with exit code %OD_DSH_EXIT% 1>&2
)
exit /b %OD_DSH_EXIT%
