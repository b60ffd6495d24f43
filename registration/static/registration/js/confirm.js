// A tap that cannot be undone asks first: any form with data-confirm (withdrawing, closing check-in).
document.addEventListener("submit", (event) => {
  const question = event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
// The private page's slip (its QR code and the name) on paper.
document.querySelectorAll("[data-print]").forEach((button) => button.addEventListener("click", () => window.print()));
