// The chart module's script, inlined in every HTML page after dygraphs (writers/html_chart.cpp).
'use strict';
window.loopscopeCharts = {};
