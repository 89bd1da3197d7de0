// Drawing a Gomoku position as SVG: grid, coordinates, stones, last move, winning line,
// move numbers, and an agent's search (heat map and principal variation).
// Points are in standard notation ("h8": column letter from the left, row number from
// the bottom), as the server sends them.
"use strict";

const Board = (() => {
  const UNIT = 40;          // SVG units between two lines
  const SVG = "http://www.w3.org/2000/svg";

  function parsePoint(point, size) {
    const col = point.charCodeAt(0) - 97;
    const row = size - parseInt(point.slice(1), 10);
    return { col, row };
  }

  function pointName(col, row, size) {
    return String.fromCharCode(97 + col) + String(size - row);
  }

  function centre(point, size) {
    const { col, row } = parsePoint(point, size);
    return { x: (col + 1) * UNIT, y: (row + 1) * UNIT };
  }

  function element(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(content, attributes, parent) {
    const node = element("text", attributes, parent);
    node.textContent = content;
    return node;
  }

  function starPoints(size) {
    if (size < 9) return [];
    const edge = size >= 13 ? 3 : 2;
    const far = size - 1 - edge;
    const middle = (size - 1) / 2;
    const points = [[edge, edge], [edge, far], [far, edge], [far, far]];
    if (size % 2 === 1) points.push([middle, middle]);
    return points;
  }

  // Column letters above and below the grid, row numbers left and right of it, as
  // on a real board, so a point reads the same from any side.
  function drawCoordinates(svg, size, index) {
    const at = (index + 1) * UNIT;
    const letter = String.fromCharCode(97 + index);
    const number = String(size - index);
    const near = UNIT * 0.38;
    const far = (size + 1) * UNIT - near;
    text(letter, { class: "coordinate column", x: at, y: near }, svg);
    text(letter, { class: "coordinate column", x: at, y: far }, svg);
    text(number, { class: "coordinate row", x: near, y: at }, svg);
    text(number, { class: "coordinate row", x: far, y: at }, svg);
  }

  function drawGrid(svg, size) {
    const extent = (size + 1) * UNIT;
    svg.setAttribute("viewBox", `0 0 ${extent} ${extent}`);
    element("rect", { class: "wood", x: 0, y: 0, width: extent, height: extent, rx: 8 }, svg);
    const grid = element("g", { class: "grid" }, svg);
    for (let i = 0; i < size; i++) {
      const at = (i + 1) * UNIT;
      element("line", { x1: UNIT, y1: at, x2: size * UNIT, y2: at }, grid);
      element("line", { x1: at, y1: UNIT, x2: at, y2: size * UNIT }, grid);
      drawCoordinates(svg, size, i);
    }
    for (const [col, row] of starPoints(size)) {
      element("circle", { class: "star", cx: (col + 1) * UNIT, cy: (row + 1) * UNIT, r: 3.5 }, svg);
    }
  }

  function drawHeat(svg, size, heat, occupied) {
    const layer = element("g", { class: "heat" }, svg);
    heat.forEach((value, index) => {
      const point = pointName(index % size, Math.floor(index / size), size);
      if (value === 0 || occupied.has(point)) return;
      const { x, y } = centre(point, size);
      const colour = value > 0 ? "255,80,0" : "0,110,255";
      element("circle", {
        cx: x, cy: y, r: UNIT * 0.42,
        fill: `rgba(${colour},${(0.15 + 0.75 * Math.abs(value)).toFixed(3)})`,
      }, layer);
    });
  }

  function drawStones(svg, size, moves) {
    moves.forEach((point, index) => {
      const colour = index % 2 === 0 ? "black" : "white";
      const { x, y } = centre(point, size);
      element("circle", { class: `stone ${colour}`, cx: x, cy: y, r: UNIT * 0.46, "data-point": point }, svg);
    });
  }

  // Move numbers on the stones, or else a ring on the last move (drawn above the
  // winning line, so that it never hides them).
  function drawMarks(svg, size, moves, showNumbers) {
    if (showNumbers) {
      moves.forEach((point, index) => {
        const colour = index % 2 === 0 ? "black" : "white";
        const { x, y } = centre(point, size);
        text(String(index + 1), { class: `number on-${colour}`, x, y }, svg);
      });
    } else if (moves.length) {
      const { x, y } = centre(moves[moves.length - 1], size);
      element("circle", { class: "last", cx: x, cy: y, r: UNIT * 0.18 }, svg);
    }
  }

  function drawPrincipalVariation(svg, size, pv, firstColour, occupied) {
    pv.forEach((point, index) => {
      if (occupied.has(point)) return;
      const colour = (index % 2 === 0) === (firstColour === "black") ? "black" : "white";
      const { x, y } = centre(point, size);
      element("circle", { class: `stone pv-stone ${colour}`, cx: x, cy: y, r: UNIT * 0.4 }, svg);
      text(String(index + 1), { class: `pv number on-${colour}`, x, y }, svg);
    });
  }

  function drawWinningLine(svg, size, line) {
    if (line.length < 2) return;
    const start = centre(line[0], size);
    const end = centre(line[line.length - 1], size);
    element("line", { class: "win", x1: start.x, y1: start.y, x2: end.x, y2: end.y }, svg);
  }

  // view: {size, moves, winningLine, showNumbers, insight: {heat, pv, colour} | null}
  function draw(svg, view) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    drawGrid(svg, view.size);
    const occupied = new Set(view.moves);
    const insight = view.insight;
    if (insight && insight.heat) drawHeat(svg, view.size, insight.heat, occupied);
    drawStones(svg, view.size, view.moves);
    if (insight && insight.pv) {
      drawPrincipalVariation(svg, view.size, insight.pv, insight.colour, occupied);
    }
    drawWinningLine(svg, view.size, view.winningLine || []);
    drawMarks(svg, view.size, view.moves, view.showNumbers);
  }

  // The point under a click (client coordinates), or null off the grid.
  function pointAt(svg, size, clientX, clientY) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const local = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    const col = Math.round(local.x / UNIT) - 1;
    const row = Math.round(local.y / UNIT) - 1;
    if (col < 0 || row < 0 || col >= size || row >= size) return null;
    return pointName(col, row, size);
  }

  // Where a point is drawn on the page, in CSS pixels (for tests and tools).
  function pointOnPage(svg, size, point) {
    const { x, y } = centre(point, size);
    const onScreen = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
    return { x: onScreen.x + window.scrollX, y: onScreen.y + window.scrollY };
  }

  return { draw, pointAt, pointOnPage };
})();
