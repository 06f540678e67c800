import { expect, useSession, test } from "./fixtures";

/**
 * The offline basemap names places (issue 30: clusters sat on blank land): the largest towns on the
 * fleet view, every town of 10,000 or more once the map is zoomed in to a region, credited to GeoNames.
 */
test("the fleet map names the largest towns, and a vehicle's close view names the smaller ones too", async ({ page }) => {
  await useSession(page);
  await page.goto("/dashboard");
  const map = page.locator("[data-fleet-map]");
  await expect(map).toHaveAttribute("data-map-ready", "true");
  const names = map.locator(".fdp-place-name");
  await expect(names.filter({ hasText: /^Helsinki$/ })).toHaveCount(1);
  await expect(names.filter({ hasText: /^Oulu$/ })).toHaveCount(1);
  const wide = await names.count();
  expect(wide).toBeLessThan(15);
  await expect(map.locator(".leaflet-control-attribution")).toContainText("GeoNames");
  // Place labels are not vehicles: the DOM contract still counts one [data-device-id] per vehicle.
  await expect(map.locator(".fdp-place [data-device-id]")).toHaveCount(0);

  // A vehicle's track around Helsinki is shown at a regional zoom: its smaller neighbours are named as well.
  await page.goto("/dashboard/vehicles/sbx-001");
  const close = page.locator("[data-fleet-map]");
  await expect(close).toHaveAttribute("data-map-ready", "true");
  await expect.poll(async () => close.locator(".fdp-place-name").count()).toBeGreaterThan(wide);
});
