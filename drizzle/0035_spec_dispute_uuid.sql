-- AIP-4 §2.3: dispute ids are UUIDs. A dispute filed before (dsp_<ULID>) gets the UUID of the same
-- 128 bits (timestamp first, so the list order holds); the server still accepts the old dsp_ form
-- wherever it reads a dispute id (src/features/disputes/disputes.ids.ts, docs/decisions.md).
DO $$
DECLARE
  r record;
  bits bit varying;
  h text;
  i int;
BEGIN
  FOR r IN SELECT "id" FROM "disputes" WHERE "id" LIKE 'dsp\_%' LOOP
    bits := B'';
    FOR i IN 5..30 LOOP
      bits := bits || ((strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(r."id", i, 1)) - 1)::bit(5))::bit varying;
    END LOOP;
    bits := substring(bits FROM 3); -- 130 bits, the top two always zero
    h := '';
    FOR i IN 0..31 LOOP
      h := h || to_hex(substring(bits FROM i * 4 + 1 FOR 4)::bit(4)::int);
    END LOOP;
    UPDATE "disputes"
      SET "id" = substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' || substr(h, 21, 12)
      WHERE "id" = r."id";
  END LOOP;
END $$;
