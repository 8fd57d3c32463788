// The chart module's script, inlined in every HTML page after dygraphs (writers/html_chart.cpp).
// loopscopeCharts.draw(id) reads the chart's JSON (writers/html_chart.hpp says what it holds),
// decodes its integers and hands dygraphs the min and max of every series per pixel column of
// the x range shown, again after every zoom and pan: every spike is drawn at every zoom, and
// every row once there are fewer rows than columns.
'use strict';
window.loopscopeCharts = (function () {
  const charts = {};

  function ints(width, b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
    if (width === 1) return new Int8Array(bytes.buffer);
    if (width === 2) return new Int16Array(bytes.buffer);
    return new Int32Array(bytes.buffer);
  }
  function none(width) { return width === 1 ? -128 : width === 2 ? -32768 : -2147483648; }

  function decodeX(d) {
    const steps = ints(d.x.w, d.x.d);
    const x = new Float64Array(steps.length);
    let q = d.x.first;
    for (let i = 0; i < steps.length; ++i) { q += steps[i]; x[i] = q * d.x.unit; }
    return x;
  }
  function decodeSeries(s, n) {
    const raw = ints(s.w, s.d), no = none(s.w), v = new Float64Array(n).fill(NaN);
    if (s.at) {
      const at = ints(s.at.w, s.at.d);
      let i = 0;
      for (let k = 0; k < at.length; ++k) { i += at[k]; v[i] = raw[k] === no ? NaN : raw[k] * s.unit; }
    } else if (s.delta) {
      let q = s.first;
      for (let i = 0; i < n; ++i) if (raw[i] !== no) { q += raw[i]; v[i] = q * s.unit; }
    } else {
      for (let i = 0; i < n; ++i) v[i] = raw[i] === no ? NaN : raw[i] * s.unit;
    }
    return v;
  }

  function lowerBound(a, v) {
    let lo = 0, hi = a.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < v) lo = m + 1; else hi = m; }
    return lo;
  }

  // The rows to draw for x in [x0, x1] over `columns` pixel columns: every row when they are
  // few, else per column the rows of each drawn series' min and max; with the rows just outside
  // the range (lines run to the edges) and the first and last rows (the full extent for reset).
  function pickRows(c, x0, x1, columns) {
    const x = c.x, n = x.length;
    const i0 = Math.max(0, lowerBound(x, x0) - 1), i1 = Math.min(n, lowerBound(x, x1) + 1);
    const rows = [];
    if (n > 0 && i0 > 0) rows.push(0);
    if (i1 - i0 <= 2 * columns) {
      for (let i = i0; i < i1; ++i) rows.push(i);
    } else {
      const w = (x1 - x0) / columns, drawn = c.drawn;
      let i = i0;
      while (i < i1) {
        const col = Math.floor((x[i] - x0) / w);
        let j = i + 1;
        while (j < i1 && Math.floor((x[j] - x0) / w) === col) ++j;
        const picked = [];
        for (const v of drawn) {
          let lo = -1, hi = -1;
          for (let k = i; k < j; ++k) {
            const y = v[k];
            if (y !== y) continue;
            if (lo < 0 || y < v[lo]) lo = k;
            if (hi < 0 || y > v[hi]) hi = k;
          }
          if (lo >= 0) picked.push(lo, hi);
        }
        if (picked.length === 0) picked.push(i);
        picked.sort((a, b) => a - b);
        let last = -1;
        for (const k of picked) if (k !== last) { rows.push(k); last = k; }
        i = j;
      }
    }
    if (n > 0 && i1 < n) rows.push(n - 1);
    return rows;
  }

  function fileOf(c, rows) {
    const out = new Array(rows.length);
    for (let r = 0; r < rows.length; ++r) {
      const i = rows[r], row = [c.x[i]];
      for (const v of c.values) { const y = v[i]; row.push(y === y ? y : null); }
      out[r] = row;
    }
    return out;
  }

  function fmtNum(v) {
    if (v === null || v === undefined || v !== v) return '-';
    const a = Math.abs(v);
    return a >= 1000 || a === Math.round(a) ? String(Math.round(v * 1000) / 1000) : v.toPrecision(6).replace(/\.?0+$/, '');
  }
  function xText(c, x) {
    if (c.d.xNames) { const k = Math.round(x); return k === x && c.d.xNames[k] !== undefined ? c.d.xNames[k] : ''; }
    return fmtNum(x);
  }
  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  // The hover legend: the row's name and x, each series' value (names for coded values), and a
  // mark's text at that x.
  function legend(c, row) {
    if (row === null || row < 0 || row >= c.rows.length) return '';
    const i = c.rows[row], d = c.d;
    const parts = [];
    if (d.rowName) parts.push(esc(d.rowName) + ' ' + (d.rowBase + i));
    parts.push(esc(d.xLabel) + ' ' + esc(xText(c, c.x[i])));
    d.series.forEach(function (s, k) {
      const v = c.values[k][i];
      let t = fmtNum(v);
      if (s.names && v === v && s.names[Math.round(v)] !== undefined) t = s.names[Math.round(v)];
      parts.push('<span style="color:' + esc(s.colour) + '">' + esc(s.label) + '</span> ' + esc(t));
    });
    for (const m of d.marks) {
      if (m.x === c.x[i]) parts.push('<span class="lsc-mark">' + esc(m.text) + '</span>');
    }
    return parts.join(' &middot; ');
  }

  // Bars side by side at each x, one slot per bar series, from 0 (or the axis bottom).
  function barPlotter(e) {
    const g = e.dygraph, ctx = e.drawingContext, pts = e.points;
    const bars = g.getOption('loopscopeBars') || [e.setName];
    const slot = Math.max(0, bars.indexOf(e.setName)), count = bars.length;
    let gap = Infinity;
    for (let k = 1; k < pts.length; ++k) gap = Math.min(gap, pts[k].canvasx - pts[k - 1].canvasx);
    if (!isFinite(gap)) gap = e.plotArea.w / 4;
    const groupW = gap * 0.8, w = groupW / count;
    const yr = g.yAxisRange();
    const bottom = g.toDomYCoord(Math.max(0, yr[0]));
    ctx.fillStyle = e.color;
    for (const p of pts) {
      if (p.yval === null || p.yval !== p.yval) continue;
      const left = p.canvasx - groupW / 2 + slot * w;
      ctx.fillRect(left, Math.min(p.canvasy, bottom), Math.max(w - 1, 1), Math.abs(bottom - p.canvasy));
    }
  }

  function underlay(c) {
    return function (ctx, area, g) {
      const d = c.d;
      ctx.save();
      ctx.font = '11px sans-serif';
      for (const b of d.bands) {
        const l = g.toDomXCoord(b.x0), r = g.toDomXCoord(b.x1);
        ctx.fillStyle = 'rgba(128,128,128,0.15)';
        ctx.fillRect(l, area.y, r - l, area.h);
        ctx.fillStyle = '#666';
        ctx.fillText(b.label, Math.max(l, area.x) + 3, area.y + 12);
      }
      for (const r of d.rules) {
        const y = g.toDomYCoord(r.y);
        if (y < area.y || y > area.y + area.h) continue;
        ctx.strokeStyle = '#2a2'; ctx.setLineDash([6, 4]);
        ctx.beginPath(); ctx.moveTo(area.x, y); ctx.lineTo(area.x + area.w, y); ctx.stroke();
        ctx.setLineDash([]); ctx.fillStyle = '#2a2'; ctx.textAlign = 'right';
        ctx.fillText(r.label, area.x + area.w - 3, y - 3); ctx.textAlign = 'left';
      }
      for (const e of d.events) {
        const x = g.toDomXCoord(e.x);
        if (x < area.x || x > area.x + area.w) continue;
        ctx.strokeStyle = '#c0c'; ctx.setLineDash([4, 3]);
        ctx.beginPath(); ctx.moveTo(x, area.y); ctx.lineTo(x, area.y + area.h); ctx.stroke();
        ctx.setLineDash([]); ctx.fillStyle = '#c0c'; ctx.fillText(e.label, x + 3, area.y + 24);
      }
      // Marks: a red ring at the point, or a triangle at the top when above the axis.
      ctx.strokeStyle = '#d00'; ctx.fillStyle = '#d00'; ctx.lineWidth = 1.5;
      for (const m of d.marks) {
        const x = g.toDomXCoord(m.x);
        if (x < area.x - 5 || x > area.x + area.w + 5) continue;
        const y = g.toDomYCoord(m.y);
        if (y < area.y) {
          ctx.beginPath(); ctx.moveTo(x, area.y + 8); ctx.lineTo(x - 4, area.y); ctx.lineTo(x + 4, area.y); ctx.fill();
        } else {
          ctx.beginPath(); ctx.arc(x, Math.min(y, area.y + area.h), 5, 0, 2 * Math.PI); ctx.stroke();
        }
      }
      ctx.restore();
    };
  }

  function refresh(c) {
    const g = c.g;
    if (!g) return;
    const r = g.xAxisRange();
    if (c.range && c.range[0] === r[0] && c.range[1] === r[1]) return;
    const full = r[0] <= c.x[0] && r[1] >= c.x[c.x.length - 1];
    c.rows = pickRows(c, r[0], r[1], c.columns());
    c.range = r;
    g.updateOptions({ file: fileOf(c, c.rows) }, false);
    if (full) c.range = g.xAxisRange();
    if (c.d.group) {
      for (const id in charts) {
        const o = charts[id];
        if (o === c || o.d.group !== c.d.group || !o.g) continue;
        const or = o.g.xAxisRange();
        if (or[0] === r[0] && or[1] === r[1]) continue;
        o.g.updateOptions({ dateWindow: r }, true);
        refresh(o);
      }
    }
  }

  function draw(id) {
    const el = document.getElementById(id);
    const d = JSON.parse(document.getElementById(id + '-data').textContent);
    const c = { d: d, x: decodeX(d) };
    c.values = d.series.map(function (s) { return decodeSeries(s, d.n); });
    c.drawn = c.values.filter(function (v, k) { return d.series[k].draw !== 'hidden'; });
    c.columns = function () { return Math.max(50, Math.round(el.clientWidth || 1000)); };
    charts[id] = c;
    const legendEl = document.getElementById(id + '-legend');
    if (c.x.length === 0) { el.textContent = 'No data.'; return; }
    const lo = c.x[0], hi = c.x[c.x.length - 1];
    c.rows = pickRows(c, lo, hi, c.columns());
    const bars = d.series.filter(function (s) { return s.draw === 'bars'; }).map(function (s) { return s.label; });
    const series = {};
    d.series.forEach(function (s) {
      const o = { color: s.colour };
      if (s.draw === 'steps') o.stepPlot = true;
      if (s.draw === 'points') { o.drawPoints = true; o.strokeWidth = 0; o.pointSize = 2; }
      if (s.draw === 'bars') o.plotter = barPlotter;
      if (s.draw === 'hidden') { o.strokeWidth = 0; o.drawPoints = false; o.highlightCircleSize = 0; }
      if (s.right) o.axis = 'y2';
      series[s.label] = o;
    });
    const opts = {
      labels: [d.xLabel].concat(d.series.map(function (s) { return s.label; })),
      series: series,
      xlabel: d.xLabel, ylabel: d.yLabel,
      animatedZooms: false, connectSeparatedPoints: true, strokeWidth: 1,
      legend: 'never', labelsKMB: false, logscale: d.yLog,
      highlightCircleSize: 3,
      loopscopeBars: bars.length ? bars : undefined,
      underlayCallback: underlay(c),
      highlightCallback: function (e, x, pts, row) { legendEl.innerHTML = legend(c, row); },
      unhighlightCallback: function () { legendEl.innerHTML = ''; },
      zoomCallback: function () { refresh(c); },
      drawCallback: function (g) {
        if (!c.g) return;
        const r = g.xAxisRange();
        if (c.range && (c.range[0] !== r[0] || c.range[1] !== r[1])) {
          clearTimeout(c.timer);
          c.timer = setTimeout(function () { refresh(c); }, 60);
        }
      },
      axes: { x: {}, y: {} },
    };
    if (d.y2Label) opts.y2label = d.y2Label;
    if (d.yMax !== null && d.yMin !== null && d.yMax > d.yMin) opts.valueRange = c.valueRange = [d.yMin, d.yMax];
    else if (!d.yLog) opts.includeZero = true;
    // Bars: half a bar group's room beyond the first and the last, so the outer bars show whole
    // (x_range_pad is in pixels: the plot's width shared among the rows).
    if (bars.length) opts.xRangePad = Math.max(10, (c.columns() - 80) / (2 * Math.max(1, c.x.length)));
    // Named places (runs, groups): room for the first and last names and marks at the edges,
    // which dygraphs would otherwise cut.
    else if (d.xNames) opts.xRangePad = 40;
    if (d.xNames) {
      const names = d.xNames;
      opts.axes.x.valueFormatter = function (x) { return xText(c, x); };
      opts.axes.x.ticker = function (min, max, pixels) {
        const ticks = [], every = Math.max(1, Math.ceil((max - min) / Math.max(1, pixels / 90)));
        for (let k = Math.max(0, Math.ceil(min)); k <= max && k < names.length; k += every) ticks.push({ v: k, label: esc(names[k]) });
        return ticks;
      };
    }
    const t0 = performance.now();
    c.g = new Dygraph(el, fileOf(c, c.rows), opts);
    // A double-click zooms out whole: the y axis too goes back to the one at load, not to one
    // fitted to every series (the hover-only ones included).
    if (c.valueRange) {
      el.addEventListener('dblclick', function () {
        setTimeout(function () { c.g.updateOptions({ valueRange: c.valueRange }); refresh(c); }, 0);
      });
    }
    c.range = c.g.xAxisRange();
    el.dataset.drawMs = String(Math.round(performance.now() - t0));
    el.dataset.rows = String(c.x.length);
    const help = document.createElement('div');
    help.className = 'lsc-help';
    help.textContent = 'Drag to zoom, shift-drag to pan, double-click to zoom out.';
    legendEl.parentNode.insertBefore(help, legendEl.nextSibling);
  }

  // Zoom the chart to a mark's x range (a hitch clicked in the table) and bring it into view.
  function zoomTo(id, markId) {
    const c = charts[id];
    if (!c || !c.g) return;
    const m = c.d.marks.find(function (k) { return k.id === markId; });
    if (!m) return;
    c.g.updateOptions({ dateWindow: [m.z0, m.z1] });
    refresh(c);
    document.getElementById(id).scrollIntoView({ block: 'center' });
  }

  return { draw: draw, zoomTo: zoomTo, charts: charts };
})();
