export const KEY="lumina.progress.v1";let memory=null;function storage(){try{return globalThis.localStorage||null;}catch{return null;}}
export const MAX_MOVES=2147483647;export const MAX_DAY=1000000;export const MAX_DAYS=400;const clean=(e)=>{const s=e&&Number.isInteger(e.stars)?Math.min(3,Math.max(0,e.stars)):0;const best=e&&Number.isInteger(e.best)&&e.best>0?Math.min(MAX_MOVES,e.best):null;return s||best?{stars:s,best}:null;};const isDay=(d)=>Number.isInteger(d)&&d>=0&&d<=MAX_DAY;export function loadProgress(){let raw=memory;try{const st=storage();if(st)raw=st.getItem(KEY);}catch{}
const out={levels:Object.create(null),days:[]};try{const data=raw?JSON.parse(raw):null;const lv=data&&typeof data.levels==="object"&&!Array.isArray(data.levels)?data.levels:{};for(const id of Object.keys(lv)){const e=clean(lv[id]);if(e)out.levels[id]=e;}
if(data&&Array.isArray(data.days))out.days=[...new Set(data.days.filter(isDay))].sort((a,b)=>a-b).slice(-MAX_DAYS);}catch{}
return out;}
function save(p){memory=JSON.stringify(p);try{const st=storage();if(st)st.setItem(KEY,memory);}catch{}}
export function recordResult(id,{stars,moves,helped=false},day=null){const p=loadProgress(),old=p.levels[id]||{stars:0,best:null};const best=helped?old.best:old.best?Math.min(old.best,moves):moves;const e={stars:Math.max(old.stars,stars),best};p.levels[id]=e;if(isDay(day)&&!p.days.includes(day))p.days=[...p.days,day].sort((a,b)=>a-b).slice(-MAX_DAYS);save(p);return e;}
export function totalStars(progress=loadProgress(),idPrefix=""){let t=0;for(const[id,e]of Object.entries(progress.levels||{}))if(id.startsWith(idPrefix))t+=e.stars||0;return t;}
export const isWorldUnlocked=(world,total,gates)=>String(world)in gates&&total>=gates[String(world)];
