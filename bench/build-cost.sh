#!/usr/bin/env bash
# What one install of riemdp costs: per-file compiler CPU time and peak
# memory, the whole install's CPU time, and the installed size.
#
#   bash bench/build-cost.sh [SOURCE_DIR] [LIBRARY]
#
# SOURCE_DIR defaults to this checkout; LIBRARY to a fresh temporary folder
# (it is kept, so that a benchmark can load the build afterwards). One make
# job unless MAKEFLAGS says otherwise, as R CMD INSTALL does by default; R's
# own compiler flags are used unchanged (the compiler is only wrapped by
# /usr/bin/time through a temporary R_MAKEVARS_USER file).
set -euo pipefail

src=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
lib=${2:-$(mktemp -d "${TMPDIR:-/tmp}/riemdp-build-cost-lib.XXXXXX")}
mkdir -p "$lib"
work=$(mktemp -d "${TMPDIR:-/tmp}/riemdp-build-cost.XXXXXX")
log="$work/compiler.log"
: > "$log"

# The wrapper: times one compiler call and logs its output file.
cat > "$work/cxx" <<EOF
#!/usr/bin/env bash
out=?
args=("\$@")
for ((i = 0; i < \${#args[@]}; i++)); do
  [ "\${args[i]}" = "-o" ] && out=\${args[i+1]}
done
/usr/bin/time -f "%U %S %M" -o "$work/one.\$\$" "\$@"
status=\$?
printf '%s %s\n' "\$out" "\$(cat "$work/one.\$\$")" >> "$log"
rm -f "$work/one.\$\$"
exit \$status
EOF
chmod +x "$work/cxx"
cxx=$(R CMD config CXX17)
cat > "$work/Makevars" <<EOF
CXX17 = $work/cxx $cxx
EOF

# A copy without earlier build products, so that every file is compiled.
mkdir "$work/pkg"
tar -C "$src" --exclude=.git --exclude=check-build --exclude=docs --exclude='*.o' --exclude='*.so' -cf - . \
  | tar -C "$work/pkg" -xf -

start=$(date +%s.%N)
R_MAKEVARS_USER="$work/Makevars" /usr/bin/time -f "%U %S" -o "$work/install.time" \
  R CMD INSTALL --no-multiarch --library="$lib" "$work/pkg" > "$work/install.log" 2>&1 \
  || { tail -n 40 "$work/install.log"; echo "build-cost: R CMD INSTALL failed"; exit 1; }
end=$(date +%s.%N)

so="$lib/riemdp/libs/riemdp.so"
printf 'build-cost: %s (MAKEFLAGS=%s), R %s, %s\n' "$src" "${MAKEFLAGS:-}" \
  "$(R --version | head -n 1 | cut -d' ' -f3)" "$($cxx --version | head -n 1)"
printf '%-28s %10s %14s\n' "file" "CPU s" "peak MB"
awk '{ f = $1; sub(".*/", "", f); printf "%-28s %10.1f %14.0f\n", f, $2 + $3, $4 / 1024; cpu += $2 + $3;
       if ($4 > peak) peak = $4 }
     END { printf "%-28s %10.1f %14.0f\n", "all compiler calls", cpu, peak / 1024 }' "$log"
read -r u s < "$work/install.time"
printf 'install CPU: %.1f s (%.2f min); wall: %.1f s\n' "$(echo "$u + $s" | bc)" \
  "$(echo "($u + $s) / 60" | bc -l)" "$(echo "$end - $start" | bc)"
printf 'installed size: %s (shared object %s)\n' "$(du -sh "$lib/riemdp" | cut -f1)" "$(du -sh "$so" | cut -f1)"
printf 'library: %s\n' "$lib"
rm -rf "$work"
