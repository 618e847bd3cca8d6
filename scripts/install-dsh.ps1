# install-dsh.ps1 - installs the DeepSeek Harness toolchain Open Design is tested with (Node, dsh, pnpm) on
# Windows, pinned, checksum-verified, without any global npm install, and puts a dsh.cmd launcher in
# %LOCALAPPDATA%\open-design\bin.
#
#   & ([scriptblock]::Create((irm 'https://open-design.ai/install-dsh.ps1?version=1')))
#   powershell -ExecutionPolicy Bypass -File install-dsh.ps1 [-NoLaunch]
#
# Artifact layout served at $env:OD_DSH_BASE_URL (same as install-dsh.sh):
#   SHA256SUMS                       lines "<sha256>  <name>"
#   node-v<NODE>-win-<arch>.zip      Node distribution; top folder node-v<NODE>-win-<arch>\ with node.exe (<arch>: x64|arm64)
#   dsh-<DSH>.tgz                    the dsh npm package tarball (package\..., package.json "bin" names dsh)
#   pnpm-<PNPM>.tgz                  the pnpm npm package tarball
# Every download is verified before it is unpacked; everything is unpacked into a staging folder that is moved
# into place only when complete. Rerunning is a no-op.
param([switch]$NoLaunch)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version Latest

# BEGIN GENERATED VERSION POLICY (scripts/gen-dsh-installers.ts from server/dsh/version-policy.json)
$BootstrapVersion = '1'
$NodeVersion = '24.11.1'
$DshVersion = '0.1.2-rc.1'
$PnpmVersion = '10.20.0'
# END GENERATED VERSION POLICY

function Fail([string]$Message) {
  Write-Error "install-dsh: error: $Message" -ErrorAction Continue
  exit 1
}
function Say([string]$Message) { Write-Host "install-dsh: $Message" }

$BaseUrl = if ($env:OD_DSH_BASE_URL) { $env:OD_DSH_BASE_URL.TrimEnd('/') } else { "https://open-design.ai/bootstrap/dsh/toolchain/v$BootstrapVersion" }
$Arch = if ($env:PROCESSOR_ARCHITECTURE -eq 'ARM64') { 'arm64' } else { 'x64' }
$LocalAppData = if ($env:LOCALAPPDATA) { $env:LOCALAPPDATA } else { Fail 'LOCALAPPDATA is not set' }
$Root = Join-Path $LocalAppData 'open-design\dsh-toolchain'
$BinDir = if ($env:OD_DSH_BIN_DIR) { $env:OD_DSH_BIN_DIR } else { Join-Path $LocalAppData 'open-design\bin' }
$Toolchain = Join-Path $Root "node-$NodeVersion`_dsh-$DshVersion`_pnpm-$PnpmVersion"

function Get-Artifact([string]$Name, [string]$Dest) {
  try { Invoke-WebRequest -UseBasicParsing -Uri "$BaseUrl/$Name" -OutFile $Dest }
  catch { Fail "download failed: $BaseUrl/$Name ($($_.Exception.Message))" }
}

function Assert-Checksum([string]$File, [string]$Name, [string]$SumsFile) {
  $expected = $null
  foreach ($line in Get-Content $SumsFile) {
    $parts = $line -split '\s+', 2
    if ($parts.Count -eq 2 -and $parts[1].TrimStart('*') -eq $Name) { $expected = $parts[0].ToLowerInvariant() }
  }
  if (-not $expected) { Fail "SHA256SUMS has no entry for $Name" }
  $actual = (Get-FileHash -Algorithm SHA256 -Path $File).Hash.ToLowerInvariant()
  if ($actual -ne $expected) { Fail "checksum mismatch for $Name (expected $expected, got $actual); nothing was installed" }
}

function Expand-Tgz([string]$Archive, [string]$Dest) {
  New-Item -ItemType Directory -Force -Path $Dest | Out-Null
  & tar.exe -xzf $Archive -C $Dest --strip-components=1
  if ($LASTEXITCODE -ne 0) { Fail "could not unpack $Archive" }
}

function Get-PackageBin([string]$PackageJson, [string]$Name) {
  $pkg = Get-Content -Raw $PackageJson | ConvertFrom-Json
  if ($pkg.bin -is [string]) { return $pkg.bin }
  $value = $pkg.bin.$Name
  if (-not $value) { Fail "the $Name package names no $Name executable" }
  return $value
}

New-Item -ItemType Directory -Force -Path $Root, $BinDir | Out-Null
$Stage = $null
try {
  if ((Test-Path (Join-Path $Toolchain '.complete')) -and (Test-Path (Join-Path $Toolchain 'node\node.exe'))) {
    Say "node $NodeVersion, dsh $DshVersion, pnpm $PnpmVersion already installed"
    $DshBin = Get-Content -Raw (Join-Path $Toolchain '.dsh-bin')
  } else {
    $Stage = Join-Path $Root (".stage." + [System.Guid]::NewGuid().ToString('N'))
    New-Item -ItemType Directory -Path $Stage | Out-Null
    $NodeFile = "node-v$NodeVersion-win-$Arch.zip"
    $DshFile = "dsh-$DshVersion.tgz"
    $PnpmFile = "pnpm-$PnpmVersion.tgz"
    Say "downloading from $BaseUrl"
    $Sums = Join-Path $Stage 'SHA256SUMS'
    Get-Artifact 'SHA256SUMS' $Sums
    foreach ($name in @($NodeFile, $DshFile, $PnpmFile)) {
      Get-Artifact $name (Join-Path $Stage $name)
      Assert-Checksum (Join-Path $Stage $name) $name $Sums
    }
    $Tree = Join-Path $Stage 'tree'
    Expand-Archive -Path (Join-Path $Stage $NodeFile) -DestinationPath (Join-Path $Stage 'node-zip')
    New-Item -ItemType Directory -Force -Path $Tree | Out-Null
    Move-Item (Join-Path $Stage "node-zip\node-v$NodeVersion-win-$Arch") (Join-Path $Tree 'node')
    Expand-Tgz (Join-Path $Stage $DshFile) (Join-Path $Tree 'dsh')
    Expand-Tgz (Join-Path $Stage $PnpmFile) (Join-Path $Tree 'pnpm')
    $Node = Join-Path $Tree 'node\node.exe'
    if ((& $Node --version) -ne "v$NodeVersion") { Fail "the downloaded node is not v$NodeVersion" }
    $DshBin = Get-PackageBin (Join-Path $Tree 'dsh\package.json') 'dsh'
    $PnpmBin = Get-PackageBin (Join-Path $Tree 'pnpm\package.json') 'pnpm'
    $reported = & $Node (Join-Path $Tree "dsh\$DshBin") --version 2>&1 | Out-String
    if (-not $reported.Contains($DshVersion)) { Fail "the downloaded dsh does not report $DshVersion" }
    New-Item -ItemType Directory -Force -Path (Join-Path $Tree 'bin') | Out-Null
    Set-Content -Encoding ASCII -Path (Join-Path $Tree 'bin\pnpm.cmd') -Value "@echo off`r`n`"$Toolchain\node\node.exe`" `"$Toolchain\pnpm\$PnpmBin`" %*"
    Set-Content -Encoding ASCII -NoNewline -Path (Join-Path $Tree '.dsh-bin') -Value $DshBin
    Set-Content -Encoding ASCII -Path (Join-Path $Tree '.complete') -Value ''
    if (Test-Path $Toolchain) { Remove-Item -Recurse -Force $Toolchain }
    Move-Item $Tree $Toolchain
    Say "installed node $NodeVersion, dsh $DshVersion, pnpm $PnpmVersion in $Toolchain"
  }

  $Launcher = Join-Path $BinDir 'dsh.cmd'
  $Temp = "$Launcher.$PID.tmp"
  $Body = "@echo off`r`nrem open-design dsh launcher (install-dsh.ps1) node=$NodeVersion dsh=$DshVersion pnpm=$PnpmVersion`r`n" +
    "set `"PATH=$Toolchain\node;$Toolchain\bin;%PATH%`"`r`n`"$Toolchain\node\node.exe`" `"$Toolchain\dsh\$DshBin`" %*`r`n"
  Set-Content -Encoding ASCII -NoNewline -Path $Temp -Value $Body
  Move-Item -Force $Temp $Launcher
  & $Launcher --version | Out-Null
  if ($LASTEXITCODE -ne 0) { Fail "the launcher $Launcher does not run" }
  Say "launcher: $Launcher"
  $UserPath = [Environment]::GetEnvironmentVariable('Path', 'User')
  if (-not ($UserPath -split ';' | Where-Object { $_ -eq $BinDir })) {
    [Environment]::SetEnvironmentVariable('Path', "$BinDir;$UserPath", 'User')
    Say "added $BinDir to your user PATH (open a new terminal to use it)"
  }
  if (-not $NoLaunch) {
    Say 'opening the Harness web UI for provider setup (dsh web)'
    Start-Process -FilePath $Launcher -ArgumentList 'web' -WindowStyle Hidden
  }
  Say 'done'
} finally {
  if ($Stage -and (Test-Path $Stage)) { Remove-Item -Recurse -Force $Stage }
}
