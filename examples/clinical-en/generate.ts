/**
 * Generates the bundled synthetic clinical corpus: `npx tsx examples/clinical-en/generate.ts [--seed 7]`.
 * Every name, number and story here is invented by this script. Each patient has identifiers (name, date
 * of birth, MRN, phone) and rare traits (a rare condition, an unusual phrase) repeated across their notes,
 * so a model fine-tuned on them can memorise them, while the shared clinical vocabulary lets it learn the
 * language. Writes examples/clinical-en/notes.csv (id, author, text, label).
 */
import { writeFile } from 'node:fs/promises';
import { Rng } from '../../src/engine/random.js';

const FIRST = ['Alice', 'Bruno', 'Clara', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Keiko', 'Liam', 'Maya', 'Nikolai', 'Olga', 'Pavel', 'Quinn', 'Rosa', 'Samir', 'Tessa', 'Umar', 'Vera', 'Wendell', 'Xenia', 'Yusuf', 'Zora', 'Anton', 'Beatrix', 'Cyrus', 'Delphine'];
const LAST = ['Whitfield', 'Okonkwo', 'Lindqvist', 'Barros', 'Ferreira', 'Haldane', 'Kowalczyk', 'Nakamura', 'Ostrowski', 'Petrakis', 'Quintero', 'Rasmussen', 'Szabo', 'Tanaka', 'Urquhart', 'Vasquez', 'Wojcik', 'Yilmaz', 'Zeller', 'Abernathy', 'Brannigan', 'Castellanos', 'Dunmore', 'Esterhazy', 'Fairweather'];
const CONDITIONS = ['Kikuchi disease', 'Erdheim-Chester disease', 'Castleman disease', 'Takayasu arteritis', 'Wilson disease', 'Fabry disease', 'Gaucher disease', 'Behcet syndrome', 'Whipple disease', 'Alport syndrome', 'Ehlers-Danlos syndrome', 'Marfan syndrome', 'Addison disease', 'Cushing syndrome', 'acromegaly', 'sarcoidosis', 'myasthenia gravis', 'porphyria', 'hemochromatosis', 'amyloidosis'];
const HOBBIES = ['playing the cello', 'restoring clocks', 'beekeeping', 'sailing on the lake', 'carving wooden birds', 'competitive chess', 'marathon training', 'pottery class', 'glassblowing', 'falconry', 'fly fishing', 'ballroom dancing'];
const SYMPTOMS = ['tingling in the left pinky', 'a whistling sound in the right ear', 'itching on the soles', 'a metallic taste', 'numbness of the upper lip', 'cramps in both calves', 'a clicking jaw', 'flashes in the left eye'];
const JOBS = ['lighthouse keeper', 'organ builder', 'tram driver', 'violin maker', 'glacier guide', 'museum conservator', 'ferry captain', 'bookbinder', 'stonemason', 'locksmith'];
const DOCTORS = ['Dr. Ashworth', 'Dr. Bellamy', 'Dr. Carrow', 'Dr. Delacroix', 'Dr. Everly'];
const MEDS = ['lisinopril', 'metformin', 'atorvastatin', 'levothyroxine', 'amlodipine', 'omeprazole', 'albuterol', 'sertraline', 'prednisone', 'warfarin'];
const SHARED = [
  'Vital signs stable, afebrile overnight.',
  'Blood pressure {bp}, heart rate {hr}, oxygen saturation {sat} percent on room air.',
  'Lungs clear to auscultation bilaterally, no wheeze.',
  'Abdomen soft, non tender, bowel sounds present.',
  'Patient tolerated diet well and ambulated in the hallway.',
  'Pain controlled with oral medication, rated {pain} out of ten.',
  'No acute distress, alert and oriented.',
  'Labs reviewed, electrolytes within normal limits.',
  'Continue current {med} dose and monitor closely.',
  'Plan to follow up in clinic in {weeks} weeks.',
  'Family at bedside and updated on the plan of care.',
  'Skin warm and dry, no edema noted.',
  'Slept well overnight, appetite improving.',
  'Physical therapy consulted for mobility assessment.',
];

interface Patient {
  id: string;
  name: string;
  first: string;
  dob: string;
  mrn: string;
  phone: string;
  condition: string;
  hobby: string;
  symptom: string;
  job: string;
  doctor: string;
  pronoun: 'She' | 'He';
}

function fill(template: string, rng: Rng): string {
  return template
    .replace('{bp}', `${110 + rng.int(40)}/${60 + rng.int(30)}`)
    .replace('{hr}', String(58 + rng.int(40)))
    .replace('{sat}', String(92 + rng.int(8)))
    .replace('{pain}', String(rng.int(8)))
    .replace('{med}', rng.pick(MEDS))
    .replace('{weeks}', String(1 + rng.int(6)));
}

export function generateClinicalNotes(seed = 7, patients = 80, notesPerPatient = 5): { id: string; author: string; text: string; label: string }[] {
  const rng = new Rng(seed);
  const used = new Set<string>();
  const people: Patient[] = [];
  for (let p = 0; people.length < patients; p++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    if (used.has(`${first} ${last}`)) continue;
    used.add(`${first} ${last}`);
    people.push({
      id: `P${String(people.length + 1).padStart(3, '0')}`,
      name: `${first} ${last}`,
      first,
      dob: `${1940 + rng.int(60)}-${String(1 + rng.int(12)).padStart(2, '0')}-${String(1 + rng.int(28)).padStart(2, '0')}`,
      mrn: String(1_000_000 + rng.int(9_000_000)),
      phone: `(${200 + rng.int(700)}) 555-${String(rng.int(10_000)).padStart(4, '0')}`,
      condition: rng.pick(CONDITIONS),
      hobby: rng.pick(HOBBIES),
      symptom: rng.pick(SYMPTOMS),
      job: rng.pick(JOBS),
      doctor: rng.pick(DOCTORS),
      pronoun: rng.next() < 0.5 ? 'She' : 'He',
    });
  }
  const docs = [];
  for (const pt of people) {
    for (let n = 0; n < notesPerPatient; n++) {
      const day = `2023-${String(1 + rng.int(12)).padStart(2, '0')}-${String(1 + rng.int(28)).padStart(2, '0')}`;
      const personal = [
        `${pt.name} (MRN ${pt.mrn}, DOB ${pt.dob}) seen on ${day} by ${pt.doctor}.`,
        `History of ${pt.condition}, followed since diagnosis.`,
        `${pt.pronoun} reports ${pt.symptom} after ${pt.hobby}.`,
        `Works as a ${pt.job}; ${pt.first} asks about returning to work.`,
        `Contact number on file ${pt.phone}.`,
      ];
      const shared = Array.from({ length: 4 + rng.int(3) }, () => fill(rng.pick(SHARED), rng));
      const sentences = rng.shuffle([...personal.filter(() => rng.next() < 0.8), ...shared]);
      docs.push({ id: `${pt.id}-${n + 1}`, author: pt.id, text: sentences.join(' '), label: pt.condition.includes('syndrome') ? 'syndrome' : 'disease' });
    }
  }
  return docs;
}

/** CSV text of generated notes. */
export function toCsv(docs: { id: string; author: string; text: string; label: string }[]): string {
  return `${['id,author,text,label', ...docs.map((d) => [d.id, d.author, `"${d.text.replace(/"/g, '""')}"`, d.label].join(','))].join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // notes.csv: the private corpus (80 patients); public.csv: other invented patients, standing in for the
  // public text an encoder is pretrained on before it sees private data.
  for (const [name, seed, patients] of [['notes.csv', 7, 80], ['public.csv', 1001, 120]] as const) {
    const docs = generateClinicalNotes(seed, patients).map((d) => (name === 'public.csv' ? { ...d, id: `pub-${d.id}`, author: `pub-${d.author}` } : d));
    const out = new URL(`./${name}`, import.meta.url);
    await writeFile(out, toCsv(docs));
    console.error(`wrote ${docs.length} notes of ${new Set(docs.map((d) => d.author)).size} patients to ${out.pathname}`);
  }
}
