// Log a penalty (templates/tournament/console/penalty.html): say before saving when the chosen foul disqualifies.
(function () {
  const form = document.getElementById("penalty-form");
  if (!form) return;
  const disqualifying = JSON.parse(document.getElementById("disqualifying").textContent);
  function update() {
    const kind = (form.querySelector('input[name="kind"]:checked') || {}).value;
    const dq = disqualifying.includes(kind);
    document.getElementById("dq-warning").hidden = !dq;
    document.getElementById("dq-confirm").hidden = !dq;
  }
  form.addEventListener("change", update);
  update();
})();
