#!/usr/bin/env bash
# Regenerate the NACA 0012 meshes of this directory, their 32-way METIS
# partitions and their ghost-exchange COMs (docs/formats.md).
#
#   traces/data/regenerate.sh [MPPNET]            meshes, partitions and COMs
#   traces/data/regenerate.sh --com-only [MPPNET] only the COMs, from the
#                                                 shipped meshes and partitions
#
# MPPNET is the mppnet binary (default: $MPPNET, else build/mppnet). The full
# run needs gmsh (apt-get install gmsh) and an mppnet built with METIS. The
# shipped files were made with gmsh 4.8.4 and METIS 5.1.0 (Debian 12); other
# versions mesh and partition differently, which is why the results are kept
# here as data. The point counts are part of the file names: the script stops
# if gmsh produces a different count.
set -euo pipefail

com_only=0
if [ "${1:-}" = "--com-only" ]; then
  com_only=1
  shift
fi
here=$(cd "$(dirname "$0")" && pwd)
mppnet=${1:-${MPPNET:-build/mppnet}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# points:mesh-size scale s (naca0012.geo)
for spec in 2817:0.91 9290:0.4625 54868:0.187; do
  pts=${spec%%:*}
  s=${spec#*:}
  name=naca0012_$pts
  if [ "$com_only" = 0 ]; then
    gmsh -2 -nt 1 -v 2 -format msh22 -setnumber s "$s" "$here/naca0012.geo" -o "$tmp/$name.msh"
    got=$(awk '$1 == "$Nodes" { getline; print $1; exit }' "$tmp/$name.msh")
    if [ "$got" != "$pts" ]; then
      echo "regenerate.sh: s = $s gave $got points, not $pts (another gmsh version?);" \
           "choose s again and rename the files" >&2
      exit 1
    fi
    gzip -9 -n -c "$tmp/$name.msh" > "$here/$name.msh.gz"
    "$mppnet" com partition "$here/$name.msh.gz" --parts 32 \
      --part-out "$here/$name.part32.gz" -o "$here/$name.com32.mtx.gz"
  else
    "$mppnet" com partition "$here/$name.msh.gz" --parts 32 \
      --part-in "$here/$name.part32.gz" -o "$here/$name.com32.mtx.gz"
  fi
done
