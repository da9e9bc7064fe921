/** Days and months: dates, never names, and never places ("in August", "From March 1978"). */
export const CALENDAR_WORDS: readonly string[] = [
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
];

/**
 * Clinical abbreviations and short drug names that are also entries of the census and Moby name lists
 * (Po, Gu, Cath, Levo, Foley): written by hand for ppmlm from general clinical usage, so that a name
 * recogniser reading notes does not take the vocabulary of care for names. Weekdays and months are dates,
 * not names. Public, fixed before any corpus is seen.
 */
export const CLINICAL_WORDS: readonly string[] = [
  // routes, systems, units, lines
  'po', 'iv', 'im', 'sq', 'pr', 'sl', 'gt', 'ng', 'og', 'gu', 'gi', 'cv', 'ct', 'mri', 'cxr', 'ekg', 'ecg', 'eeg', 'ra', 'la', 'rv', 'lv', 'av', 'pa', 'ij', 'sc', 'fem',
  'aline', 'a-line', 'art', 'cath', 'foley', 'picc', 'ett', 'trach', 'peg', 'vent', 'mech', 'pacer', 'endo', 'ortho', 'neuro', 'psych', 'resp', 'cardio', 'pulm', 'renal', 'rad', 'rads',
  'co', 'ci', 'svr', 'cvp', 'map', 'hr', 'bp', 'rr', 'sbp', 'dbp', 'abg', 'vbg', 'hct', 'hgb', 'wbc', 'plt', 'inr', 'ptt', 'bun', 'na', 'ca', 'mg', 'mag', 'phos', 'lfts', 'bili', 'bil', 'alk',
  'min', 'max', 'tol', 'dec', 'inc', 'reg', 'temp', 'temps', 'liter', 'liters', 'los', 'le', 'ue', 'mae', 'vea', 'pvc', 'pvcs', 'pac', 'pacs', 'nsr', 'st', 'sr', 'af', 'afib', 'vt', 'vf', 'chf', 'cad', 'copd',
  'ms', 'mss', 'rrt', 'ot', 'pt', 'sw', 'ada', 'np', 'rn', 'md', 'ed', 'er', 'ew', 'or', 'icu', 'ccu', 'micu', 'sicu', 'csru', 'pacu', 'dnr', 'dni', 'cpr', 'npo', 'prn', 'qd', 'bid', 'tid', 'qid', 'hs',
  // drugs written short or by brand
  'levo', 'neo', 'fent', 'dex', 'vanco', 'zosyn', 'cipro', 'flagyl', 'colace', 'lasix', 'ativan', 'haldol', 'heparin', 'coumadin', 'dopa', 'dobut', 'nitro', 'ntg', 'kcl', 'mso4', 'morphine', 'tylenol',
  'propofol', 'versed', 'dilaudid', 'lopressor', 'captopril', 'insulin', 'albumin', 'bolus', 'boluses', 'senna', 'dulcolax', 'protonix', 'pepcid', 'carafate', 'reglan', 'zofran', 'digoxin', 'amio', 'dilt',
  // eponyms and short forms of devices and findings
  'swan', 'ganz', 'swan-ganz', 'hickman', 'fick', 'bair', 'hugger', 'shiley', 'quinton', 'kling', 'brady', 'tachy', 'chol', 'gluc', 'crea', 'creat', 'poss', 'syst', 'peri', 'lima', 'ramus', 'perla', 'perrla', 'pearla',
  'sternal', 'riss', 'osh', 'english', 'spanish',
  // the Latin of medicine (in vitro, in vivo, in situ, in utero): listed surnames, never names there
  'vitro', 'vivo', 'situ', 'utero',
  // days and months: dates, never names
  ...CALENDAR_WORDS,
];

const CLINICAL = new Set(CLINICAL_WORDS);
/** Whether a (case-folded) word is one of {@link CLINICAL_WORDS}. */
export const isClinicalWord = (key: string): boolean => CLINICAL.has(key);
