/**
 * The browser-side script of the HTML report, as text. It reads the chart data the page embeds
 * as JSON (`#eos-data`) and draws it with Chart.js (inlined beside it): per partition the log end
 * offset, high watermark and last stable offset over virtual time; each transactional.id's
 * transactions as bars per client and its granted producer epochs; the gap between high
 * watermark and last stable offset; consumer lag against the high watermark and the last stable
 * offset. Faults are shaded bands and every anomaly a red dashed line, on every time axis; on its
 * partition's chart the anomaly is also a red cross at its offset. Animation is off, so the
 * charts are complete when the script ends; `window.eosCharts` lists them for tests.
 *
 * Plain ES2017, no imports: it runs from a file:// URL with no network.
 */
export const HTML_CHART_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('eos-data').textContent);
  var seconds = function (us) { return us / 1e6; };
  var endS = seconds(data.simulatedUs);
  var charts = [];
  var COLOURS = { leo: '#1f77b4', hw: '#2ca02c', lso: '#9467bd', anomaly: '#d62728' };
  var OUTCOME_COLOURS = {
    committed: '#2ca02c', aborted: '#7f7f7f', failed: '#d62728', unknown: '#ff7f0e', open: '#9467bd'
  };
  var PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

  var marks = {
    id: 'eosMarks',
    beforeDatasetsDraw: function (chart) {
      var x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
      ctx.save();
      ctx.fillStyle = 'rgba(255, 165, 0, 0.18)';
      data.faults.forEach(function (fault) {
        var endUs = fault.endUs === undefined ? data.simulatedUs : fault.endUs;
        var left = Math.max(area.left, x.getPixelForValue(seconds(fault.startUs)));
        var right = Math.min(area.right, x.getPixelForValue(seconds(endUs)));
        if (right > left) ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
      });
      ctx.restore();
    },
    afterDatasetsDraw: function (chart) {
      var x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
      ctx.save();
      ctx.strokeStyle = COLOURS.anomaly;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([5, 4]);
      data.anomalies.forEach(function (anomaly) {
        if (anomaly.timeUs === undefined) return;
        var px = x.getPixelForValue(seconds(anomaly.timeUs));
        if (px < area.left || px > area.right) return;
        ctx.beginPath();
        ctx.moveTo(px, area.top);
        ctx.lineTo(px, area.bottom);
        ctx.stroke();
      });
      ctx.restore();
    }
  };

  function timeAxis() {
    return { type: 'linear', min: 0, max: endS,
      title: { display: true, text: 'virtual time (s)' } };
  }

  function withEnd(points) {
    var out = points.map(function (p) { return { x: seconds(p.timeUs), y: p.offset }; });
    if (out.length > 0) out.push({ x: endS, y: out[out.length - 1].y });
    return out;
  }

  function draw(id, config, name) {
    var canvas = document.getElementById(id);
    config.plugins = [marks];
    config.options = Object.assign({ animation: false, responsive: true,
      maintainAspectRatio: false, parsing: true }, config.options);
    var chart = new Chart(canvas, config);
    charts.push({ name: name, id: id, chart: chart });
  }

  function stepLine(label, points, colour, dash) {
    return { type: 'line', label: label, data: withEnd(points), stepped: 'after',
      borderColor: colour, backgroundColor: colour, borderWidth: 2, pointRadius: 0,
      borderDash: dash || [] };
  }

  data.timeline.partitions.forEach(function (p, index) {
    var key = p.topic + '-' + p.partition;
    var anomalies = data.anomalies.filter(function (a) {
      return a.topic === p.topic && a.partition === p.partition && a.timeUs !== undefined;
    }).map(function (a) {
      return { x: seconds(a.timeUs), y: a.offset === undefined ? 0 : a.offset, kind: a.kind };
    });
    var datasets = [
      stepLine('log end offset', p.logEndOffset, COLOURS.leo),
      stepLine('high watermark', p.highWatermark, COLOURS.hw, [6, 3]),
      stepLine('last stable offset', p.lastStableOffset, COLOURS.lso, [2, 2])
    ];
    // order -1: drawn last, on top of the offset lines (Chart.js draws lower orders on top).
    datasets.push({ type: 'scatter', label: 'anomaly', data: anomalies, pointStyle: 'crossRot',
      order: -1,
      pointRadius: 10, pointBorderWidth: 4, borderColor: COLOURS.anomaly,
      backgroundColor: COLOURS.anomaly });
    draw('partition-' + index, { type: 'line', data: { datasets: datasets }, options: {
      scales: { x: timeAxis(), y: { title: { display: true, text: 'offset' } } },
      plugins: { title: { display: true, text: key + ': LEO, HW, LSO' } } } }, 'partition ' + key);
  });

  data.timeline.transactionalIds.forEach(function (t, index) {
    var clients = [];
    t.spans.forEach(function (s) { if (clients.indexOf(s.client) < 0) clients.push(s.client); });
    var datasets = Object.keys(OUTCOME_COLOURS).map(function (outcome) {
      return { label: outcome, backgroundColor: OUTCOME_COLOURS[outcome], grouped: false,
        barPercentage: 0.6, data: t.spans.filter(function (s) { return s.outcome === outcome; })
          .map(function (s) {
            var end = s.endUs === undefined ? data.simulatedUs : s.endUs;
            return { x: [seconds(s.startUs), Math.max(seconds(end), seconds(s.startUs) + 0.01)],
              y: s.client + ' (epoch ' +
                (s.producerEpoch === undefined ? '?' : s.producerEpoch) + ')' };
          }) };
    });
    draw('txn-' + index, { type: 'bar', data: { datasets: datasets }, options: {
      indexAxis: 'y', scales: { x: timeAxis(), y: { type: 'category' } },
      plugins: { title: { display: true, text: 'transactions of ' + t.transactionalId } } } },
      'transactions ' + t.transactionalId);
    var grants = t.epochGrants.map(function (g) {
      return { timeUs: g.timeUs, offset: g.producerEpoch };
    });
    draw('epoch-' + index, { type: 'line', data: { datasets: [
      Object.assign(stepLine('producerEpoch granted', grants, '#8c564b'), { pointRadius: 4 })
    ] }, options: { scales: { x: timeAxis(), y: { title: { display: true, text: 'producerEpoch' },
      ticks: { precision: 0 } } },
      plugins: { title: { display: true, text: 'producer epochs of ' + t.transactionalId } } } },
      'epochs ' + t.transactionalId);
  });

  if (data.metrics.stableOffsetGaps.length > 0) {
    var gaps = data.metrics.stableOffsetGaps;
    draw('gap', { type: 'line', data: { datasets: gaps.map(function (g, i) {
      return stepLine(g.topic + '-' + g.partition, g.series.map(function (s) {
        return { timeUs: s.timeUs, offset: s.gap };
      }), PALETTE[i % PALETTE.length]);
    }) }, options: { scales: { x: timeAxis(), y: { title: { display: true, text: 'offsets' } } },
      plugins: { title: { display: true, text: 'high watermark minus last stable offset' } } } },
      'gap');
  }

  var lagClients = [];
  data.metrics.consumerLag.forEach(function (l) {
    if (lagClients.indexOf(l.client) < 0) lagClients.push(l.client);
  });
  lagClients.forEach(function (client, index) {
    var datasets = [];
    data.metrics.consumerLag.filter(function (l) { return l.client === client; })
      .forEach(function (l, i) {
        var colour = PALETTE[i % PALETTE.length];
        var key = l.topic + '-' + l.partition;
        var hw = l.series.map(function (s) {
          return { timeUs: s.timeUs, offset: s.highWatermarkLag };
        });
        var lso = l.series.map(function (s) {
          return { timeUs: s.timeUs, offset: s.lastStableOffsetLag };
        });
        datasets.push(stepLine(key + ' vs HW', hw, colour));
        datasets.push(stepLine(key + ' vs LSO', lso, colour, [4, 3]));
      });
    draw('lag-' + index, { type: 'line', data: { datasets: datasets }, options: {
      scales: { x: timeAxis(), y: { title: { display: true, text: 'records behind' } } },
      plugins: { title: { display: true, text: 'consumer lag of ' + client } } } },
      'lag ' + client);
  });

  window.eosCharts = charts;
})();
`;
