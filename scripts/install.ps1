# install.ps1 - downloads the `od` binary for this Windows machine from a release, verifies it against the
# SHA256SUMS of the release and installs it as od.exe in %LOCALAPPDATA%\od\bin (or the folder you name).
#
#   powershell -ExecutionPolicy Bypass -File install.ps1 [-Dir DIR]
#
# Release layout served at $env:OD_RELEASE_URL (same as install.sh):
#   SHA256SUMS              lines "<sha256>  <name>"
#   od-windows-x64.exe      the binary
# The binary is downloaded into a staging folder inside the target folder, verified and tried (`od --version`),
# then moved into place: a mismatch or a failed download leaves the folder as it was.
# Environment: OD_RELEASE_URL, OD_INSTALL_DIR (the folder; -Dir wins).
param([string]$Dir)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version Latest

function Fail([string]$Message) {
  Write-Error "install: error: $Message" -ErrorAction Continue
  exit 1
}
function Say([string]$Message) { Write-Host "install: $Message" }

$ReleaseUrl = if ($env:OD_RELEASE_URL) { $env:OD_RELEASE_URL.TrimEnd('/') } else { 'https://open-design.ai/od/releases/latest' }
if (-not $Dir) { $Dir = $env:OD_INSTALL_DIR }
if (-not $Dir) {
  if (-not $env:LOCALAPPDATA) { Fail 'LOCALAPPDATA is not set; name a folder with -Dir' }
  $Dir = Join-Path $env:LOCALAPPDATA 'od\bin'
}
if ($env:PROCESSOR_ARCHITECTURE -ne 'AMD64') { Fail "no od release for $($env:PROCESSOR_ARCHITECTURE) Windows yet (only x64)" }
$Name = 'od-windows-x64.exe'

function Get-Artifact([string]$Artifact, [string]$Dest) {
  try { Invoke-WebRequest -UseBasicParsing -Uri "$ReleaseUrl/$Artifact" -OutFile $Dest }
  catch { Fail "download failed: $ReleaseUrl/$Artifact ($($_.Exception.Message))" }
}

New-Item -ItemType Directory -Force -Path $Dir | Out-Null
# In the target folder, so the final move is a rename on one volume.
$Stage = Join-Path $Dir ('.od-install.' + [System.Guid]::NewGuid().ToString('N'))
New-Item -ItemType Directory -Path $Stage | Out-Null
try {
  Say "downloading $Name from $ReleaseUrl"
  $Sums = Join-Path $Stage 'SHA256SUMS'
  Get-Artifact 'SHA256SUMS' $Sums
  $Expected = $null
  foreach ($line in Get-Content $Sums) {
    $parts = $line -split '\s+', 2
    if ($parts.Count -eq 2 -and $parts[1].TrimStart('*') -eq $Name) { $Expected = $parts[0].ToLowerInvariant() }
  }
  if (-not $Expected) { Fail "the release has no $Name (SHA256SUMS names no such file)" }
  $Staged = Join-Path $Stage 'od.exe'
  Get-Artifact $Name $Staged
  $Actual = (Get-FileHash -Algorithm SHA256 -Path $Staged).Hash.ToLowerInvariant()
  if ($Actual -ne $Expected) { Fail "checksum mismatch for $Name (expected $Expected, got $Actual); nothing was installed" }
  $Version = & $Staged --version
  if ($LASTEXITCODE -ne 0) { Fail "the downloaded $Name does not run on this machine; nothing was installed" }
  $Target = Join-Path $Dir 'od.exe'
  Move-Item -Force $Staged $Target
  Say "installed $Version as $Target"
  $UserPath = [Environment]::GetEnvironmentVariable('Path', 'User')
  if (($env:Path -split ';') -contains $Dir) {
    Say "$Dir is on your PATH: run od"
  } elseif (-not (($UserPath -split ';') -contains $Dir)) {
    [Environment]::SetEnvironmentVariable('Path', "$Dir;$UserPath", 'User')
    Say "added $Dir to your user PATH (open a new terminal to run od)"
  } else {
    Say "$Dir is on your user PATH: open a new terminal to run od"
  }
} finally {
  if (Test-Path $Stage) { Remove-Item -Recurse -Force $Stage }
}
