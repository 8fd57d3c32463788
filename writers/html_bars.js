// Grouped horizontal bars for the HTML pages (writers/html_bars.cpp): dygraphs draws series
// over an axis and has no grouped bars, so the summary's and the fleet's bars are drawn here on
// a canvas. One block of bars a row (a run or a group), one bar a series (a figure), all on one
// scale from 0; hovering a bar names its row, series and value. The chart follows the width of
// its box, so a page never scrolls sideways.
'use strict';
window.loopscopeBars = (function () {
  const barPx = 12, gapPx = 8, axisPx = 22, padPx = 6;

  // A round step of about a fifth of the largest value, for the scale's lines.
  function niceStep(top) {
    const raw = top / 5, p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
  }

  function fmt(v) {
    return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
  }

  function draw(box, spec) {
    const canvas = box.querySelector('canvas');
    const tip = box.querySelector('.bars-tip');
    const ctx = canvas.getContext('2d');
    const font = '12px system-ui,sans-serif';
    ctx.font = font;
    let labelPx = 0;
    for (const r of spec.rows) {
      ctx.font = (r.emphasised ? '600 ' : '') + font;
      labelPx = Math.max(labelPx, ctx.measureText(r.label).width);
    }
    const width = Math.max(320, box.clientWidth);
    labelPx = Math.min(Math.ceil(labelPx) + 2 * padPx, Math.floor(width * 0.45));
    const rowPx = spec.series.length * barPx + gapPx;
    const height = axisPx + spec.rows.length * rowPx + padPx;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = width + 'px';
    canvas.style.height = height + 'px';
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.font = font;
    ctx.clearRect(0, 0, width, height);

    let top = 0;
    for (const r of spec.rows)
      for (const v of r.values) if (v !== null && v > top) top = v;
    if (!(top > 0)) top = 1;
    const step = niceStep(top);
    const scaleTop = Math.ceil(top / step) * step;
    const barsPx = width - labelPx - 48;  // room for the value after the longest bar
    const x = (v) => labelPx + Math.max(0, v) / scaleTop * barsPx;

    ctx.textBaseline = 'middle';
    ctx.strokeStyle = '#e4e4e4';
    ctx.fillStyle = '#555';
    ctx.textAlign = 'center';
    const digits = Math.max(0, -Math.floor(Math.log10(step)));
    for (let k = 0; k * step <= scaleTop + step / 2; ++k) {
      const v = k * step;
      ctx.beginPath();
      ctx.moveTo(x(v) + 0.5, axisPx - 4);
      ctx.lineTo(x(v) + 0.5, height - padPx);
      ctx.stroke();
      ctx.fillText(v.toFixed(digits), x(v), axisPx / 2 - 2);
    }
    const hits = [];
    spec.rows.forEach(function (r, i) {
      const y0 = axisPx + i * rowPx;
      ctx.fillStyle = '#222';
      ctx.textAlign = 'right';
      ctx.font = (r.emphasised ? '600 ' : '') + font;
      let label = r.label;
      while (label.length > 4 && ctx.measureText(label).width > labelPx - padPx)
        label = '\u2026' + label.slice(2);
      ctx.fillText(label, labelPx - padPx, y0 + (rowPx - gapPx) / 2);
      ctx.font = font;
      ctx.textAlign = 'left';
      r.values.forEach(function (v, s) {
        const y = y0 + s * barPx;
        if (v === null) {
          ctx.fillStyle = '#999';
          ctx.fillText('absent', labelPx + 2, y + barPx / 2);
          hits.push({ y: y, x1: labelPx + 50, row: r, s: s, v: v });
          return;
        }
        ctx.fillStyle = spec.series[s].colour;
        ctx.fillRect(labelPx, y, x(v) - labelPx, barPx - 1);
        ctx.fillStyle = '#333';
        ctx.fillText(fmt(v), x(v) + 3, y + barPx / 2);
        hits.push({ y: y, x1: x(v) + 40, row: r, s: s, v: v });
      });
    });
    canvas.onmousemove = function (e) {
      const rect = canvas.getBoundingClientRect();
      const mx = e.clientX - rect.left, my = e.clientY - rect.top;
      const h = hits.find((b) => my >= b.y && my < b.y + barPx && mx >= labelPx && mx <= b.x1);
      if (!h) {
        tip.style.display = 'none';
        return;
      }
      tip.textContent = h.row.label + ' \u2014 ' + spec.series[h.s].name + ': ' +
        (h.v === null ? 'absent' : fmt(h.v) + ' ' + spec.unit);
      tip.style.left = Math.min(mx + 12, width - 240) + 'px';
      tip.style.top = (my + 14) + 'px';
      tip.style.display = 'block';
    };
    canvas.onmouseleave = function () { tip.style.display = 'none'; };
  }

  // Draws the chart of the box `id` from its data element `id`-data, now and on each resize.
  function show(id) {
    const box = document.getElementById(id);
    const spec = JSON.parse(document.getElementById(id + '-data').textContent);
    draw(box, spec);
    let width = box.clientWidth;
    window.addEventListener('resize', function () {
      if (box.clientWidth !== width) {
        width = box.clientWidth;
        draw(box, spec);
      }
    });
  }
  return { show: show };
})();
