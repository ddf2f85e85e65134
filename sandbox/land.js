'use strict';
// Land or sea? Natural Earth 1:50m land outlines (public domain, npm `world-atlas`),
// tested by even-odd ray casting. Edges are bucketed by latitude band so a test only
// looks at the edges that cross the point's latitude, not at every coastline.
//
// Outlines in this topology cross the antimeridian (an edge from 179.9 to -179.9), so
// the ray runs east to the antimeridian and then north along it to the pole, which is
// at sea: the crossings on both legs together give the parity.

const fs = require('node:fs');

const BAND_DEGREES = 0.5;
const BAND_COUNT = Math.ceil(180 / BAND_DEGREES);

/** Decodes the quantised, delta-encoded arcs of a TopoJSON topology into [lng, lat] lists. */
function decodeArcs(topology) {
  const [scaleX, scaleY] = topology.transform.scale;
  const [translateX, translateY] = topology.transform.translate;
  return topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [x * scaleX + translateX, y * scaleY + translateY];
    });
  });
}

/** Every arc reference of the land geometry; an arc used twice cancels out in even-odd. */
function landArcIndexes(topology) {
  const indexes = [];
  const visit = (node) => {
    if (typeof node === 'number') indexes.push(node < 0 ? ~node : node);
    else node.forEach(visit);
  };
  for (const geometry of topology.objects.land.geometries) visit(geometry.arcs);
  return indexes;
}

function bandOf(lat) {
  return Math.min(BAND_COUNT - 1, Math.max(0, Math.floor((lat + 90) / BAND_DEGREES)));
}

class LandMask {
  constructor(topology) {
    const arcs = decodeArcs(topology);
    const segments = []; // x1, y1, x2, y2 flattened; x2 unwrapped next to x1
    this.antimeridianCrossings = []; // latitudes where an edge crosses longitude 180
    for (const index of landArcIndexes(topology)) {
      const points = arcs[index];
      for (let i = 1; i < points.length; i++) {
        const [x1, y1] = points[i - 1];
        let [x2, y2] = points[i];
        if (x2 - x1 > 180) x2 -= 360;
        else if (x1 - x2 > 180) x2 += 360;
        // Half-open test, so an outline passing through a vertex at exactly 180 counts once.
        for (const meridian of [180, -180]) {
          if (Math.min(x1, x2) < meridian && meridian <= Math.max(x1, x2)) {
            this.antimeridianCrossings.push(y1 + ((meridian - x1) / (x2 - x1)) * (y2 - y1));
          }
        }
        segments.push(x1, y1, x2, y2);
      }
    }
    this.segments = Float64Array.from(segments);
    const count = this.segments.length / 4;

    // Compressed lists: band b holds segment numbers bandSegments[bandStart[b] .. bandStart[b+1]).
    const perBand = new Int32Array(BAND_COUNT);
    const forEachBand = (s, fn) => {
      const y1 = this.segments[s * 4 + 1];
      const y2 = this.segments[s * 4 + 3];
      for (let b = bandOf(Math.min(y1, y2)); b <= bandOf(Math.max(y1, y2)); b++) fn(b);
    };
    for (let s = 0; s < count; s++) forEachBand(s, (b) => perBand[b]++);
    this.bandStart = new Int32Array(BAND_COUNT + 1);
    for (let b = 0; b < BAND_COUNT; b++) this.bandStart[b + 1] = this.bandStart[b] + perBand[b];
    this.bandSegments = new Int32Array(this.bandStart[BAND_COUNT]);
    const filled = new Int32Array(BAND_COUNT);
    for (let s = 0; s < count; s++) forEachBand(s, (b) => (this.bandSegments[this.bandStart[b] + filled[b]++] = s));
  }

  static fromWorldAtlas() {
    const file = require.resolve('world-atlas/land-50m.json');
    return new LandMask(JSON.parse(fs.readFileSync(file, 'utf8')));
  }

  /** Whether the point is inside a land outline. */
  contains(lat, lng) {
    let inside = false;
    for (const crossingLat of this.antimeridianCrossings) if (crossingLat > lat) inside = !inside;
    const band = bandOf(lat);
    const seg = this.segments;
    for (let i = this.bandStart[band]; i < this.bandStart[band + 1]; i++) {
      const o = this.bandSegments[i] * 4;
      const y1 = seg[o + 1];
      const y2 = seg[o + 3];
      if (y1 > lat === y2 > lat) continue;
      const x1 = seg[o];
      let crossingLng = x1 + ((lat - y1) * (seg[o + 2] - x1)) / (y2 - y1);
      if (crossingLng > 180) crossingLng -= 360;
      else if (crossingLng < -180) crossingLng += 360;
      if (crossingLng > lng) inside = !inside;
    }
    return inside;
  }
}

module.exports = { LandMask };
