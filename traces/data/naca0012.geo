// NACA 0012 airfoil (chord 1, leading edge at the origin) inside a circular
// far field of radius R chords centred at mid-chord: a 2D triangle mesh for
// the mppnet mesh-partition generator (traces/data/regenerate.sh).
// Profile: the standard NACA 4-digit thickness formula with t = 0.12 and
// the closed-trailing-edge coefficient -0.1036,
//   y = +-5 t (0.2969 sqrt(x) - 0.1260 x - 0.3516 x^2 + 0.2843 x^3 - 0.1036 x^4),
// sampled at cosine-spaced x (dense at both edges) and joined by splines.
// One parameter, the mesh-size scale s (gmsh -setnumber s VALUE), scales
// every target size: the point count goes roughly as 1 / s^2. With gmsh
// 4.8.4, s = 0.91, 0.4625 and 0.187 give 2817, 9290 and 54868 points
// (naca0012_2817, _9290, _54868: see regenerate.sh).
DefineConstant[ s = {1.0, Name "Parameters/mesh size scale"} ];
DefineConstant[ R = {15.0, Name "Parameters/far-field radius (chords)"} ];

t = 0.12;
n = 120;              // profile samples per surface
lc_le = 0.006 * s;    // target sizes: leading edge,
lc_mid = 0.02 * s;    // mid-chord,
lc_te = 0.006 * s;    // trailing edge,
lc_far = 1.5 * s;     // far field

Function Y
  yy = 5 * t * (0.2969 * Sqrt(xx) - 0.1260 * xx - 0.3516 * xx^2 + 0.2843 * xx^3 - 0.1036 * xx^4);
Return

// Upper surface, trailing edge (i = 0) to leading edge (i = n).
up[] = {};
For i In {0 : n}
  xx = 0.5 * (1 + Cos(Pi * i / n));
  Call Y;
  lc = lc_mid;
  If (i == 0)
    lc = lc_te;
  EndIf
  If (i == n)
    lc = lc_le;
  EndIf
  If (i == 0 || i == n)
    yy = 0;
  EndIf
  p = newp;
  Point(p) = {xx, yy, 0, lc};
  up[] += p;
EndFor
// Lower surface, leading edge to trailing edge, sharing both end points.
lo[] = {up[n]};
For i In {1 : n - 1}
  xx = 0.5 * (1 - Cos(Pi * i / n));
  Call Y;
  p = newp;
  Point(p) = {xx, -yy, 0, lc_mid};
  lo[] += p;
EndFor
lo[] += up[0];

h = n / 2;            // split each surface at mid-chord (x = 0.5)
Spline(1) = {up[{0 : h}]};
Spline(2) = {up[{h : n}]};
Spline(3) = {lo[{0 : h}]};
Spline(4) = {lo[{h : n}]};

// Far field: a circle of radius R around (0.5, 0), four arcs.
c = newp; Point(c) = {0.5, 0, 0, lc_far};
f1 = newp; Point(f1) = {0.5 + R, 0, 0, lc_far};
f2 = newp; Point(f2) = {0.5, R, 0, lc_far};
f3 = newp; Point(f3) = {0.5 - R, 0, 0, lc_far};
f4 = newp; Point(f4) = {0.5, -R, 0, lc_far};
Circle(5) = {f1, c, f2};
Circle(6) = {f2, c, f3};
Circle(7) = {f3, c, f4};
Circle(8) = {f4, c, f1};

Curve Loop(1) = {5, 6, 7, 8};
Curve Loop(2) = {1, 2, 3, 4};
Plane Surface(1) = {1, 2};
Physical Curve("airfoil") = {1, 2, 3, 4};
Physical Curve("farfield") = {5, 6, 7, 8};
Physical Surface("fluid") = {1};
